import { INVITE_COOKIE } from "@atelier/core";
import { type FormEvent, useEffect, useState } from "react";
import { navigate } from "../../services/address-bar.ts";
import { FormError } from "../../ui/FormError.tsx";
import { sessionFailureMessage, signIn } from "../workspace/sign-in-actions.ts";

/** The invitation travels as a cookie, so any way of signing up (email, providers) carries it. */
const keepInvitation = (token: string) => {
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads the invitation from this cookie (the Cookie Store API is not in every browser)
  document.cookie = `${INVITE_COOKIE}=${encodeURIComponent(token)}; path=/; max-age=86400; samesite=lax`;
};
const dropInvitation = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${INVITE_COOKIE}=; path=/; max-age=0; samesite=lax`;
};

/** `/invite/:token`: an admin's invitation to sign up (SIGNUP=invite). */
export function InvitePage({ params }: { params: Readonly<Record<string, string>> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = "You are invited — Atelier";
    keepInvitation(params.token ?? "");
  }, [params.token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    setBusy(true);
    setError(null);
    try {
      await signIn(email, String(form.get("password") ?? ""), email.split("@")[0] ?? "");
      dropInvitation();
      navigate("/");
    } catch (failure) {
      setError(sessionFailureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="not-found">
      <h1>You are invited to Atelier</h1>
      <p className="muted">Create your account to start building workflows.</p>
      <form className="auth-form" onSubmit={(event) => void submit(event)}>
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
            autoComplete="new-password"
          />
        </label>
        <FormError message={error} />
        <div className="modal-actions">
          <button type="submit" disabled={busy}>
            Create account
          </button>
        </div>
      </form>
    </main>
  );
}
