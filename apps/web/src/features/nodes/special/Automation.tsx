import { automationItemId, automationItems, gatherInputs } from "@atelier/core";
import { memo } from "react";
import { useDocument } from "../../document/context.tsx";
import type { AutomationData, AutomationRun } from "../../runs/automation.ts";
import { useRunner } from "../../runs/context.tsx";
import { useNodeRun } from "../../runs/runs-store.ts";
import { BlockedNote } from "../viewers/BlockedNote.tsx";
import { mediaSrc } from "../viewers/safe-url.ts";

/** The items the automation would run now (joined so the selector compares cheaply). */
function useItems(id: string): string[] {
  const joined = useDocument((state) => {
    const { inputs, params } = gatherInputs(state.nodes, state.edges, id);
    const media = inputs.media ?? [];
    return automationItems(Array.isArray(media) ? media : [media], params.splitBy).join("\n");
  });
  return joined ? joined.split("\n") : [];
}

const MEDIA = /\.(png|jpe?g|webp|gif|svg|avif)(\?|$)/i;
const VIDEO = /\.(webm|mp4|mov)(\?|$)/i;

function Result({ value, label }: { value: string; label: string }) {
  const kind = MEDIA.test(value) ? "image" : VIDEO.test(value) ? "video" : null;
  if (!kind) return <span className="automation-text">{value.slice(0, 160)}</span>;
  const src = mediaSrc(value, kind);
  if (!src) return <BlockedNote count={1} />;
  if (kind === "image") return <img src={src} alt={label} loading="lazy" />;
  return (
    <video src={src} controls preload="metadata">
      <track kind="captions" />
    </video>
  );
}

const STATUS_TEXT: Record<AutomationRun["status"], string> = {
  queued: "Queued",
  running: "Running",
  complete: "Done",
  error: "Error",
  cancelled: "Cancelled",
};

/** One item's line: its text, live status (from its own queue entry) and result. */
const ItemRow = memo(function ItemRow({
  automationId,
  index,
  run,
}: {
  automationId: string;
  index: number;
  run: AutomationRun;
}) {
  const live = useNodeRun(automationItemId(automationId, index));
  const running = run.status === "running" && live;
  const status = running
    ? live.status === "IN_QUEUE"
      ? `Queued${live.queuePosition ? ` · #${live.queuePosition}` : ""}`
      : `Running${live.progress !== null ? ` · ${live.progress} %` : ""}`
    : STATUS_TEXT[run.status];
  return (
    <li className={`automation-item status-${run.status}`}>
      <span className="automation-label" title={run.item}>
        {index + 1}. {run.item}
      </span>
      <span className="automation-status" role="status">
        {status}
      </span>
      {run.error ? <span className="node-error">{run.error}</span> : null}
      {run.result ? <Result value={run.result} label={`Result ${index + 1}`} /> : null}
    </li>
  );
});

/**
 * Image automation's panel: before a run the items it will run; during and after, each
 * item's status and result, and Cancel while any is running.
 */
export const AutomationPanel = memo(function AutomationPanel({
  id,
  automation,
}: {
  id: string;
  automation: AutomationData | undefined;
}) {
  const runner = useRunner();
  const items = useItems(id);
  const runs = automation?.runs ?? [];
  if (runs.length === 0)
    return items.length === 0 ? (
      <span className="muted">Connect a list or a text (one item per line)</span>
    ) : (
      <p className="muted">
        {items.length} item{items.length === 1 ? "" : "s"} to run: {items.slice(0, 3).join(", ")}
        {items.length > 3 ? "…" : ""}
      </p>
    );
  const done = runs.filter((run) => run.status === "complete").length;
  const active = runs.some((run) => run.status === "queued" || run.status === "running");
  return (
    <div className="automation nodrag nowheel">
      <p className="automation-summary">
        {done} of {runs.length} done
        {active ? (
          <button type="button" className="link" onClick={() => void runner.cancel(id)}>
            Cancel all
          </button>
        ) : null}
      </p>
      <ol className="automation-items" aria-label="Items">
        {runs.map((run, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an item run is its position (its job's node id)
          <ItemRow key={`${index}-${run.requestId}`} automationId={id} index={index} run={run} />
        ))}
      </ol>
    </div>
  );
});
