import { lazy, type MouseEvent, Suspense, useEffect, useState } from "react";
import { usePersistence } from "../persistence/context.tsx";
import { useWorkspace } from "../workspace/store.ts";

const SignInDialog = lazy(() =>
  import("../library/SignInDialog.tsx").then((module) => ({ default: module.SignInDialog })),
);

/** Ctrl+S here would save the canvas hidden behind the page: nothing to save. */
const holdSave = (event: KeyboardEvent) => {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
};

/**
 * What `/w/:id` or `/local/:id` shows when the workflow is not there for this user (loaded
 * only then). Its links stay in the tab: they move the editor to a new canvas, not the page.
 */
export function WorkflowNotFound({ onLibrary }: { onLibrary(): void }) {
  const persistence = usePersistence();
  const signedIn = useWorkspace((state) => state.user !== null);
  const [signingIn, setSigningIn] = useState(false);
  useEffect(() => {
    window.addEventListener("keydown", holdSave, { capture: true });
    return () => window.removeEventListener("keydown", holdSave, { capture: true });
  }, []);
  const inPlace = (then?: () => void) => (event: MouseEvent) => {
    event.preventDefault();
    persistence.newWorkflow();
    then?.();
  };
  return (
    <main className="not-found">
      <h1>Workflow not found or not shared with you</h1>
      <p className="muted">
        The link may be mistyped, the workflow deleted or kept on another device, or its owner has
        not shared it with you.
      </p>
      <p className="not-found-links">
        <a href="/" onClick={inPlace()}>
          Start a new canvas
        </a>
        <a href="/" onClick={inPlace(onLibrary)}>
          Open your library
        </a>
        {/* Signed out, the workflow may be the user's own: signing in tries it again. */}
        {signedIn ? null : (
          <button type="button" onClick={() => setSigningIn(true)}>
            Sign in
          </button>
        )}
      </p>
      {signingIn ? (
        <Suspense fallback={null}>
          <SignInDialog onClose={() => setSigningIn(false)} />
        </Suspense>
      ) : null}
    </main>
  );
}
