import { runsApi as api } from "../../services/runs-api.ts";

/** A workflow's run history (newest first, a page at a time) and one run's details. */
export const historyActions = {
  page: (workflowId: string, cursor?: string | null) => api.workflowRuns(workflowId, cursor),
  run: async (runId: string) => (await api.getRun(runId)).run,
};
