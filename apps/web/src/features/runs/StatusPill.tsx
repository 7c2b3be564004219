import type { NodeStatus } from "@atelier/core";
import { useNodeQueued } from "./runs-store.ts";

const STATUS_TEXT = {
  idle: "Idle",
  processing: "Running",
  complete: "Done",
  error: "Error",
} as const;

/**
 * A node's status in its header. A processing node whose job still waits in the queue says
 * "Queued", as its run controls do; only that flip re-renders it.
 */
export function StatusPill({ id, status }: { id: string; status: NodeStatus }) {
  const queued = useNodeQueued(id) && status === "processing";
  return (
    <span className={`status-pill status-${queued ? "queued" : status}`} role="status">
      {queued ? "Queued" : STATUS_TEXT[status]}
    </span>
  );
}
