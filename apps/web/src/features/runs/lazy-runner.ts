import type { DocumentStore } from "../document/store.ts";
import { useWorkspace } from "../workspace/store.ts";
import { isRunnable } from "./runnable.ts";
import type { Runner, RunnerDeps } from "./runner.ts";

/**
 * The runner with its code (job stream, graph runs, automation) loaded on first use — a run,
 * or a resume with something to follow (signed in, or a node running) — rather than with the
 * editor's first paint (DESIGN §7). Same API; `isRunnable` answers at once from the
 * catalogue. It talks to the server through `services/api` (and `services/runs-api` for
 * server-side runs) unless given other clients (tests).
 */
export function createLazyRunner(
  documents: DocumentStore,
  { api: client, ...deps }: Partial<Pick<RunnerDeps, "api">> & Omit<RunnerDeps, "api">,
): Runner {
  let loaded: Promise<Runner> | null = null;
  const runner = () => {
    loaded ??= Promise.all([
      import("./runner.ts"),
      import("../../services/runs-api.ts"),
      client ?? import("../../services/api.ts").then((module) => module.api),
    ]).then(([{ createRunner }, { runsApi }, api]) =>
      createRunner(documents, { runsApi, askCost: true, ...deps, api }),
    );
    return loaded;
  };
  return {
    run: async (nodeId) => (await runner()).run(nodeId),
    cancel: async (nodeId) => (await runner()).cancel(nodeId),
    // Signed out with no node running (a first visit, an empty canvas), runner.ts's resume
    // asks for nothing and has no entries to forget: its code waits for a real use.
    resume: async (workflowId) => {
      const running = documents.getState().nodes.some((node) => node.data.status === "processing");
      if (!loaded && !running && !useWorkspace.getState().user) return;
      await (await runner()).resume(workflowId);
    },
    runGraph: async (target) => (await runner()).runGraph(target),
    isRunnable,
    dispose: () => void loaded?.then((real) => real.dispose()),
  };
}
