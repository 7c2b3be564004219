import { type FormEvent, useEffect, useState } from "react";
import { FormError } from "../../ui/FormError.tsx";
import { Modal } from "../../ui/Modal.tsx";
import {
  providerSignInUrl,
  requestPasswordReset,
  sessionFailureMessage,
  signIn,
  signInOptions,
} from "../workspace/sign-in-actions.ts";

type Mode = "sign-in" | "sign-up" | "forgot";

const TITLES: Record<Mode, string> = {
  "sign-in": "Sign in",
  "sign-up": "Create an account",
  forgot: "Reset your password",
};

/** What a reset request says, whether or not the address has an account. */
export const RESET_SENT =
  "If an account has this address, a link to choose a new password is on its way. It works for an hour.";
/** Where a forgotten password goes on a server that sends no mail. */
export const RESET_BY_ADMIN = "Forgot your password? Ask an admin of this server for a reset link.";

/** Email and password: sign in, create an account, or ask for a password reset link. */
export function SignInDialog({ onClose }: { onClose(): void }) {
  const [mode, setMode] = useState<Mode>("sign-in");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<{ id: string; name: string }[]>([]);
  const [mailsResets, setMailsResets] = useState(false);
  useEffect(() => {
    void signInOptions().then((options) => {
      setProviders(options.providers);
      setMailsResets(options.passwordReset);
    });
  }, []);

  const switchTo = (next: Mode) => {
    setMode(next);
    setError(null);
    setNotice(null);
  };

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
      if (mode === "forgot") {
        await requestPasswordReset(email);
        setNotice(RESET_SENT);
        return;
      }
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
    <Modal label={TITLES[mode]} onClose={onClose}>
      <h2>{TITLES[mode]}</h2>
      {providers.length > 0 && mode !== "forgot" ? (
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
        {mode === "forgot" ? null : (
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
        )}
        {mode === "sign-in" ? (
          mailsResets ? (
            <button type="button" className="link" onClick={() => switchTo("forgot")}>
              Forgot password?
            </button>
          ) : (
            <p className="muted">{RESET_BY_ADMIN}</p>
          )
        ) : null}
        {notice ? (
          <p className="form-notice" role="status">
            {notice}
          </p>
        ) : null}
        <FormError message={error} />
        <div className="modal-actions">
          <button
            type="button"
            className="link"
            onClick={() => switchTo(mode === "sign-in" ? "sign-up" : "sign-in")}
          >
            {mode === "sign-in" ? "Create an account" : "I have an account"}
          </button>
          <button type="submit" disabled={busy}>
            {mode === "sign-in" ? "Sign in" : mode === "sign-up" ? "Create account" : "Send link"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
