import { type FormEvent, useEffect, useState } from "react";
import { FormError } from "../../ui/FormError.tsx";
import { resetPassword, sessionFailureMessage } from "../workspace/sign-in-actions.ts";

export const RESET_LINK_INVALID =
  "This reset link is not valid any more (used, expired or cut short). Ask for a new one.";
export const PASSWORDS_DIFFER = "The two passwords are not the same";
export const PASSWORD_CHANGED = "Your password is changed. Sign in with it.";

/**
 * `/reset-password?token=…`: where a mailed reset link (through the server's redirect) or an
 * admin's one-time link lands. Sets a new password once; Better Auth checks the token.
 */
export function ResetPasswordPage() {
  const query = new URLSearchParams(window.location.search);
  const token = query.get("token");
  const broken = query.has("error") || !token;
  const [error, setError] = useState<string | null>(broken ? RESET_LINK_INVALID : null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = "Reset your password — Atelier";
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("again") ?? "")) {
      setError(PASSWORDS_DIFFER);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await resetPassword(token as string, password);
      setDone(true);
    } catch (failure) {
      const message = sessionFailureMessage(failure);
      setError(/token/i.test(message) ? RESET_LINK_INVALID : message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="not-found">
      <h1>Reset your password</h1>
      {done ? (
        <>
          <p role="status">{PASSWORD_CHANGED}</p>
          <p className="not-found-links">
            <a href="/">Go to the canvas and sign in</a>
          </p>
        </>
      ) : (
        <form className="auth-form" onSubmit={(event) => void submit(event)}>
          <label>
            New password
            <input
              name="password"
              type="password"
              required
              minLength={8}
              autoComplete="new-password"
              disabled={broken}
            />
          </label>
          <label>
            The same again
            <input
              name="again"
              type="password"
              required
              minLength={8}
              autoComplete="new-password"
              disabled={broken}
            />
          </label>
          <FormError message={error} />
          <div className="modal-actions">
            <a href="/">Back to the canvas</a>
            <button type="submit" disabled={busy || broken}>
              Set password
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
