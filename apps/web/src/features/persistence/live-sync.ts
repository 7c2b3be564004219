import { LIMITS } from "@atelier/core";
import { withShareQuery } from "../../services/share-session.ts";
import { useWorkspace } from "../workspace/store.ts";
import { conflictFound, connectionChanged } from "../workspace/sync-status.ts";

interface Commands {
  open(id: string, options: { reload: true }): Promise<unknown>;
  save(): Promise<void>;
}

/**
 * Keeps the open workflow in step with the world:
 * - realtime: an open cloud workflow listens to its event stream (one per tab); a change
 *   made elsewhere reloads it, unless there are unsaved edits — then the user chooses;
 * - connectivity (SPEC §4): offline state, and back online, pending cloud edits sync after 2 s.
 */
export function followChanges(commands: Commands): () => void {
  const workspace = useWorkspace;
  let stream: EventSource | null = null;
  let streamFor: string | null = null;

  const watch = () => {
    const { workflowId, location, share, user } = workspace.getState();
    // A signed-out visitor of a view link has no session for the stream: no live reload.
    const target = location === "cloud" && (user || !share) ? workflowId : null;
    if (target === streamFor) return;
    stream?.close();
    stream = null;
    streamFor = target;
    if (!target || typeof EventSource === "undefined") return;
    stream = new EventSource(
      withShareQuery(`/api/workflows/${encodeURIComponent(target)}/events`),
      {
        withCredentials: true,
      },
    );
    stream.addEventListener("updated", (event) => {
      const { updated_at: updatedAt } = JSON.parse((event as MessageEvent<string>).data) as {
        updated_at: string;
      };
      const state = workspace.getState();
      if (
        state.workflowId !== target ||
        state.save.state === "saving" ||
        updatedAt === state.basedOn
      )
        return;
      if (state.dirty) conflictFound(updatedAt);
      else void commands.open(target, { reload: true });
    });
  };
  const stopWatching = workspace.subscribe((state, before) => {
    if (
      state.workflowId !== before.workflowId ||
      state.location !== before.location ||
      state.user !== before.user
    )
      watch();
  });
  // This loads after the editor starts: catch up with a workflow opened or a connection
  // lost meanwhile.
  watch();
  const stopStream = () => {
    stopWatching();
    stream?.close();
    stream = null;
  };

  if (typeof window === "undefined") return stopStream;
  if (workspace.getState().online !== navigator.onLine) connectionChanged(navigator.onLine);
  let syncTimer: ReturnType<typeof setTimeout> | undefined;
  const offline = () => connectionChanged(false);
  const online = () => {
    connectionChanged(true);
    clearTimeout(syncTimer);
    syncTimer = setTimeout(() => {
      const state = workspace.getState();
      if (state.online && state.dirty && state.user && state.location === "cloud")
        void commands.save();
    }, LIMITS.timing.reconnectSyncDelayMs);
  };
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  return () => {
    stopStream();
    clearTimeout(syncTimer);
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
  };
}
