import { TERMINAL_QUEUE_STATUSES } from "@atelier/core";
import type { TestClient } from "./client.ts";

export interface JobStatus {
  requestId: string;
  status: string;
  error: string | null;
  progress: number | null;
  queue_position: number | null;
  logs: { message: string }[];
  outputs?: Record<string, unknown>;
  outputValues?: Record<string, { value: unknown }>;
}

const terminal = (status: string) =>
  (TERMINAL_QUEUE_STATUSES as readonly string[]).includes(status);

/**
 * Follows the user's job stream (GET /api/queue/events, as a browser does) until the job
 * ends; resolves with its final status. Every status seen on the way is collected.
 */
export async function waitForJob(
  client: TestClient,
  requestId: string,
  seen: string[] = [],
  /** Every job id the stream carried (to check it carries only the caller's). */
  streamed: string[] = [],
): Promise<JobStatus> {
  const controller = new AbortController();
  const response = await fetch(new URL("/api/queue/events", client.baseUrl), {
    headers: { cookie: client.cookieHeader() },
    signal: controller.signal,
  });
  if (!response.body) throw new Error("no event stream");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const read = async (): Promise<JobStatus | null> => {
    const current = await client.json<JobStatus>("POST", "/api/queue/status", { requestId });
    return terminal(current.body.status) ? current.body : null;
  };
  try {
    // The stream is open: a change from now on is pushed; one before it shows in the status.
    const already = await read();
    if (already) return already;
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream ended before the job did");
      buffer += value;
      const events = buffer.split("\n\n");
      buffer = events.pop() ?? "";
      for (const event of events) {
        const data = event.split("\n").find((line) => line.startsWith("data: "));
        if (!event.startsWith("event: job") || !data) continue;
        const job = JSON.parse(data.slice(6)) as JobStatus;
        streamed.push(job.requestId);
        if (job.requestId !== requestId) continue;
        seen.push(job.status);
        if (terminal(job.status)) return job;
      }
    }
  } finally {
    controller.abort();
  }
}
