import { lazy, Suspense } from "react";
import { BlockedNote } from "../nodes/viewers/BlockedNote.tsx";
import { DownloadLink } from "../nodes/viewers/DownloadLink.tsx";
import type { AppRun } from "./app-actions.ts";
import { isFinished } from "./app-run-watch.ts";
import { outputShown } from "./output-media.ts";

// three.js comes only with a 3D result.
const ModelViewer = lazy(() => import("../nodes/viewers/ModelViewer.tsx"));

const STATUS_TEXT: Record<string, string> = {
  queued: "Waiting in the queue…",
  running: "Running…",
  paused: "Paused: the queue is paused",
  completed: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

export const statusText = (status: string) => STATUS_TEXT[status] ?? status;

/** One value an output made: the media large, with its Download link, or the text. */
function OutputValue({ value, label, index }: { value: string; label: string; index: number }) {
  const shown = outputShown(value);
  const alt = index > 0 ? `${label} ${index + 1}` : label;
  switch (shown.kind) {
    case "image":
      return (
        <figure className="app-output-media">
          <img src={shown.src} alt={alt} decoding="async" />
          <figcaption>
            <DownloadLink url={shown.src} kind="image" />
          </figcaption>
        </figure>
      );
    case "video":
      return (
        <figure className="app-output-media">
          {/* biome-ignore lint/a11y/useMediaCaption: generated results carry no caption track. */}
          <video src={shown.src} controls playsInline aria-label={alt} />
          <figcaption>
            <DownloadLink url={shown.src} kind="video" />
          </figcaption>
        </figure>
      );
    case "audio":
      return (
        <figure className="app-output-media">
          {/* biome-ignore lint/a11y/useMediaCaption: generated results carry no caption track. */}
          <audio src={shown.src} controls aria-label={alt} />
          <figcaption>
            <DownloadLink url={shown.src} kind="audio" />
          </figcaption>
        </figure>
      );
    case "model":
      return (
        <Suspense fallback={<p className="muted">Loading the 3D viewer…</p>}>
          <ModelViewer url={shown.src} />
        </Suspense>
      );
    case "file":
      return (
        <a href={shown.href} download target="_blank" rel="noopener noreferrer">
          Download {alt}
        </a>
      );
    case "text":
      return <p className="app-output-text">{shown.text}</p>;
    case "blocked":
      return <BlockedNote count={1} />;
  }
}

/** A run of the app: where it is, then each shown output with its downloads. */
export function RunResult({ run }: { run: AppRun }) {
  const done = isFinished(run);
  const percent = run.progress === null ? null : Math.round(run.progress);
  return (
    <section className="app-run" aria-label="Run result" aria-busy={!done}>
      <div className={`app-run-state status-${run.status}`} role="status">
        <span>{statusText(run.status)}</span>
        {!done ? (
          <progress
            max={100}
            aria-label="Run progress"
            {...(percent === null ? {} : { value: percent })}
          />
        ) : null}
        {!done && percent !== null ? <span className="muted">{percent} %</span> : null}
      </div>
      {run.outputs.map((output) => (
        <div key={output.nodeId} className="app-output">
          <h3>{output.label}</h3>
          {output.error ? (
            <p className="form-error" role="alert">
              {output.error}
            </p>
          ) : null}
          {output.values.length > 0 ? (
            output.values.map((value, index) => (
              <OutputValue
                // Outputs are replaced whole, never reordered.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                value={value}
                label={output.label}
                index={index}
              />
            ))
          ) : !done ? (
            <div className="app-output-placeholder" aria-hidden="true" />
          ) : output.error ? null : (
            <p className="muted">
              {run.status === "completed" ? "No result" : "The run stopped before this result."}
            </p>
          )}
        </div>
      ))}
    </section>
  );
}
