import { type FormEvent, useEffect, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import {
  providerSignInUrl,
  sessionFailureMessage,
  signIn,
  signInProviders,
} from "../workspace/sign-in-actions.ts";

/** Email and password: sign in, or create an account. */
export function SignInDialog({ onClose }: { onClose(): void }) {
  const [mode, setMode] = useState<"sign-in" | "sign-up">("sign-in");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    void signInProviders().then(setProviders);
  }, []);

  const continueWith = async (provider: string) => {
    setError(null);
    try {
      window.location.assign(await providerSignInUrl(provider));
    } catch (failure) {
      setError(sessionFailureMessage(failure));
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    try {
      await signIn(
        email,
        password,
        mode === "sign-up" ? String(form.get("name") || email.split("@")[0]) : undefined,
      );
      onClose();
    } catch (failure) {
      setError(sessionFailureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal label={mode === "sign-in" ? "Sign in" : "Create an account"} onClose={onClose}>
      <h2>{mode === "sign-in" ? "Sign in" : "Create an account"}</h2>
      {providers.length > 0 ? (
        <div className="providers">
          {providers.map((provider) => (
            <button key={provider.id} type="button" onClick={() => void continueWith(provider.id)}>
              Continue with {provider.name}
            </button>
          ))}
          <p className="muted">or with email</p>
        </div>
      ) : null}
      <form className="auth-form" onSubmit={(event) => void submit(event)}>
        {mode === "sign-up" ? (
          <label>
            Name
            <input name="name" autoComplete="name" />
          </label>
        ) : null}
        <label>
          Email
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            required
            minLength={8}
            autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          />
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button
            type="button"
            className="link"
            onClick={() => setMode(mode === "sign-in" ? "sign-up" : "sign-in")}
          >
            {mode === "sign-in" ? "Create an account" : "I have an account"}
          </button>
          <button type="submit" disabled={busy}>
            {mode === "sign-in" ? "Sign in" : "Create account"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
