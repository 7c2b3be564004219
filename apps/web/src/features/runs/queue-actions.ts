import { runsApi as api } from "../../services/runs-api.ts";
import { notify } from "../../ui/notify.ts";
import { serverQueue } from "./queue-store.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Reads the queue again; several asks while one read is under way make one more read. */
let reading: Promise<void> | null = null;
let again = false;
async function refresh(): Promise<void> {
  if (reading) {
    again = true;
    return reading;
  }
  reading = (async () => {
    do {
      again = false;
      try {
        const { paused, runs } = await api.queue();
        serverQueue.setState({ paused, runs });
      } catch {
        // Signed out or offline: the panel keeps what it showed.
      }
    } while (again);
  })().finally(() => {
    reading = null;
  });
  return reading;
}

/** Runs an action on the queue, then shows the queue as the server has it; errors are toasts. */
async function act(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    notify.error(messageOf(error));
  }
  await refresh();
}

/** The queue panel's controls (features call services/api; components call these). */
export const queueActions = {
  refresh,
  setPaused: (paused: boolean) => act(() => api.setQueuePaused(paused)),
  move: (runId: string, direction: "up" | "down") => act(() => api.moveRun(runId, direction)),
  cancel: (runId: string) => act(() => api.cancelRun(runId)),
  cancelAll: () => act(() => api.cancelAllRuns()),
  retry: (runId: string, nodes?: string[]) => act(() => api.retryRun(runId, nodes)),
};
