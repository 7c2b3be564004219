import { formatUsd, SHARE_MESSAGES, type TotalEstimate } from "@atelier/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { SignInDialog } from "../library/SignInDialog.tsx";
import { AppField } from "./AppField.tsx";
import {
  type AppRun,
  type AppView,
  appActions,
  appFailureMessage,
  isSignedOutFailure,
} from "./app-actions.ts";
import { buildValues, type Draft, type DraftValue, initialDraft } from "./form-values.ts";

interface Props {
  app: AppView;
  shareToken: string | undefined;
  signedIn: boolean;
  /** False until the page knows whether someone is signed in. */
  sessionKnown: boolean;
  /** The shown run is still under way. */
  running: boolean;
  onStarted(run: AppRun): void;
}

/**
 * The app's form and its Run button. Values are checked as the server checks them before
 * anything is sent; a signed-out visitor is asked to sign in instead of running.
 */
export function AppRunForm({ app, shareToken, signedIn, sessionKnown, running, onStarted }: Props) {
  const [draft, setDraft] = useState<Draft>(() => initialDraft(app.fields));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState<ReadonlySet<string>>(new Set());
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [signingIn, setSigningIn] = useState(false);
  const [estimate, setEstimate] = useState<TotalEstimate | null>(null);

  // What a run with these values would cost, told a moment after the last change.
  useEffect(() => {
    if (!signedIn) return;
    const built = buildValues(app.fields, draft);
    if (!built.ok) return setEstimate(null);
    let current = true;
    const timer = setTimeout(() => {
      void appActions.estimate(app.slug, built.values, shareToken).then((answer) => {
        if (current) setEstimate(answer);
      });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [app, draft, shareToken, signedIn]);

  const change = useCallback((id: string, value: DraftValue) => {
    setDraft((current) => ({ ...current, [id]: value }));
    setProblems(({ [id]: _fixed, ...rest }) => rest);
  }, []);
  const busy = useCallback((id: string, on: boolean) => {
    setUploading((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const built = buildValues(app.fields, draft);
    if (!built.ok) {
      setProblems(built.problems);
      setError(null);
      return;
    }
    setProblems({});
    setError(null);
    setStarting(true);
    try {
      // Above the user's threshold, the estimate is shown and the run waits for a yes.
      const total = await appActions.estimate(app.slug, built.values, shareToken);
      if (!(await appActions.confirmCost(total))) return;
      onStarted(await appActions.start(app.slug, built.values, shareToken));
    } catch (failure) {
      setError(appFailureMessage(failure, "Could not start the run"));
      // Signed out meanwhile (another tab): the page shows the sign-in prompt again.
      if (isSignedOutFailure(failure)) void appActions.loadSession();
    } finally {
      setStarting(false);
    }
  };

  const waiting = uploading.size > 0;
  return (
    <>
      <form className="app-form" onSubmit={(event) => void submit(event)} noValidate>
        {app.fields.map((field) => (
          <AppField
            key={field.id}
            field={field}
            value={draft[field.id]}
            problem={problems[field.id]}
            onChange={(value) => change(field.id, value)}
            onBusy={(on) => busy(field.id, on)}
          />
        ))}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {!sessionKnown ? null : signedIn ? (
          <div className="app-run-bar">
            <button
              type="submit"
              className="app-run-button"
              disabled={waiting || starting || running}
            >
              {starting ? "Starting…" : running ? "Running…" : "Run"}
            </button>
            {estimate && (estimate.usd > 0 || estimate.unknown > 0) ? (
              <span className="run-estimate" title="At the providers' published prices">
                {estimate.usd > 0
                  ? `Est. ${formatUsd(estimate.usd)}${estimate.unknown > 0 ? " + unknown" : ""}`
                  : formatUsd(null)}
              </span>
            ) : null}
            {waiting ? <span className="muted">Waiting for the upload…</span> : null}
          </div>
        ) : (
          <div className="app-sign-in">
            <p>{SHARE_MESSAGES.signInToRun}</p>
            <button type="button" className="app-run-button" onClick={() => setSigningIn(true)}>
              Sign in
            </button>
          </div>
        )}
      </form>
      {/* Outside the form: the dialog has a form of its own. */}
      {signingIn ? <SignInDialog onClose={() => setSigningIn(false)} /> : null}
    </>
  );
}
