import {
  type RunView,
  type SavedWorkflow,
  serializeWorkflow,
  TERMINAL_RUN_STATUSES,
} from "@atelier/core";
import type { TestClient } from "./client.ts";

const wire = (source: string, sourceHandle: string, target: string, targetHandle: string) => ({
  id: `${source}-${target}`,
  source,
  sourceHandle,
  target,
  targetHandle,
});

/** text → image → video → upscale: the four-node chain of the runs issue (three steps). */
export function chainGraph(prompt = "a lighthouse at dusk") {
  const node = (id: string, type: string, x: number, values: Record<string, unknown> = {}) => ({
    id,
    type,
    position: { x, y: 0 },
    data: {
      label: id,
      inputValues: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])),
    },
  });
  return {
    nodes: [
      node("text", "text", 0, { text: prompt }),
      node("image", "flux-pro", 400, { numImages: 1 }),
      node("video", "seedance", 800, { prompt: "a slow push-in", duration: 2 }),
      node("upscale", "video-upscaler", 1200),
    ],
    edges: [
      wire("text", "text", "image", "prompt"),
      wire("image", "image", "video", "image"),
      wire("video", "video", "upscale", "video"),
    ],
  };
}

export function chainWorkflow(name = "Chain"): SavedWorkflow {
  return serializeWorkflow({ ...chainGraph(), metadata: { name } }, { now: Date.UTC(2026, 10, 1) });
}

const finished = (run: RunView) =>
  (TERMINAL_RUN_STATUSES as readonly string[]).includes(run.status);

/**
 * Follows the user's event stream (as the editor does) until the run ends; resolves with the
 * run as GET /api/runs/:id shows it then. `seen` collects every run status streamed.
 */
export async function waitForRun(
  client: TestClient,
  runId: string,
  seen: string[] = [],
): Promise<RunView> {
  const controller = new AbortController();
  const response = await fetch(new URL("/api/queue/events", client.baseUrl), {
    headers: { cookie: client.cookieHeader() },
    signal: controller.signal,
  });
  if (!response.body) throw new Error("no event stream");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const read = async () =>
    (await client.json<{ run: RunView }>("GET", `/api/runs/${runId}`)).body.run;
  try {
    const now = await read();
    if (finished(now)) return now;
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream ended");
      buffer += value;
      const events = buffer.split("\n\n");
      buffer = events.pop() ?? "";
      for (const event of events) {
        if (!event.includes("event: run")) continue;
        const data = event.split("\n").find((line) => line.startsWith("data: "));
        const run = JSON.parse(data?.slice(6) ?? "{}") as RunView;
        if (run.id !== runId) continue;
        seen.push(run.status);
        if (finished(run)) return await read();
      }
    }
  } finally {
    controller.abort();
  }
}
