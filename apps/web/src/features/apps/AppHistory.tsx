import type { AppRun } from "./app-actions.ts";
import { statusText } from "./RunResult.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

interface Props {
  runs: readonly AppRun[];
  /** The owner sees every run of the app, with who ran it. */
  isOwner: boolean;
  shownId: string | null;
  onOpen(run: AppRun): void;
}

/** The app's runs, newest first: the owner's every run, anyone else's own. */
export function AppHistory({ runs, isOwner, shownId, onOpen }: Props) {
  return (
    <section className="app-history" aria-labelledby="app-history-title">
      <h2 id="app-history-title">{isOwner ? "Every run of this app" : "Your runs"}</h2>
      {runs.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <ol>
          {runs.map((run) => (
            <li key={run.id}>
              <button
                type="button"
                aria-current={run.id === shownId ? "true" : undefined}
                onClick={() => onOpen(run)}
              >
                <span className="app-history-when">{when.format(new Date(run.createdAt))}</span>
                <span className={`app-history-status status-${run.status}`}>
                  {statusText(run.status)}
                </span>
                {isOwner ? (
                  <span className="muted">{run.runBy ? `by ${run.runBy}` : "by you"}</span>
                ) : null}
                <span className="muted">v{run.version}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
