import { type FormEvent, useEffect, useState } from "react";
import { ApiError, api } from "../../services/api.ts";
import { authCache } from "../../services/auth-cache.ts";
import { Modal } from "../canvas/Modal.tsx";
import { useWorkspace } from "../persistence/workspace-store.ts";

/** Email and password: sign in, or create an account. */
export function SignInDialog({ onClose }: { onClose(): void }) {
  const [mode, setMode] = useState<"sign-in" | "sign-up">("sign-in");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    void api
      .providers()
      .then((answer) => setProviders(answer.providers))
      .catch(() => setProviders([]));
  }, []);

  const continueWith = async (provider: string) => {
    setError(null);
    try {
      window.location.assign((await api.signInWith(provider)).url);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "Could not reach the server");
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
      // The server's sign-up does not sign in (its answer must not tell who has an account):
      // a new account signs in next, with the same details.
      if (mode === "sign-up")
        await api.signUp(email, password, String(form.get("name") || email.split("@")[0]));
      const { user } = await api.signIn(email, password);
      authCache.reset(user);
      useWorkspace.getState().set({ user, isAdmin: await authCache.isAdmin() });
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : "Could not reach the server");
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
