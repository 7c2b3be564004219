import type { MouseEvent } from "react";

interface Props {
  onNewCanvas(): void;
  onLibrary(): void;
  /** Signed out: the workflow may be the user's own once signed in. */
  onSignIn?: () => void;
}

/** Stays in this tab: the links move the editor, not the page. */
const inPlace = (action: () => void) => (event: MouseEvent) => {
  event.preventDefault();
  action();
};

/** What `/w/:id` or `/local/:id` shows when the workflow is not there for this user. */
export function WorkflowNotFound({ onNewCanvas, onLibrary, onSignIn }: Props) {
  return (
    <main className="not-found">
      <h1>Workflow not found or not shared with you</h1>
      <p className="muted">
        The link may be mistyped, the workflow deleted or kept on another device, or its owner has
        not shared it with you.
      </p>
      <p className="not-found-links">
        <a href="/" onClick={inPlace(onNewCanvas)}>
          Start a new canvas
        </a>
        <a href="/" onClick={inPlace(onLibrary)}>
          Open your library
        </a>
        {onSignIn ? (
          <button type="button" onClick={onSignIn}>
            Sign in
          </button>
        ) : null}
      </p>
    </main>
  );
}
