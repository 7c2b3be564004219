import type { ProviderStatus } from "../provider.ts";
import { type Answer, parseJson, record } from "../transport.ts";
import { COMFYUI_MESSAGES as M, TEMPLATES } from "./comfyui-input.ts";
import { missingFor, type ObjectInfo } from "./object-info.ts";
import { type ProgressSocket, percentOf } from "./progress-socket.ts";

/*
 * Reading what a ComfyUI instance reports: where a prompt is (GET /history, GET /queue), why
 * it refused one (POST /prompt's 400) and which of our node types it can run (/object_info).
 * The provider (comfyui-provider.ts) makes the calls; these turn the answers into ours.
 */

/** What these functions need of an instance of the provider's pool. */
export interface ComfyInstance {
  base: string;
  socket: ProgressSocket;
}

/** The provider's GET: JSON, or a ProviderError (it also records the instance's health). */
export type ComfyRead<I extends ComfyInstance> = (
  instance: I,
  what: string,
  path: string,
) => Promise<unknown>;

/** The text of a ComfyUI validation refusal: its message and the first node error. */
export function refusal(answer: Answer): string {
  const json = record(parseJson(answer.text));
  const error = record(json.error);
  const parts = [typeof error.message === "string" ? error.message : `HTTP ${answer.status}`];
  for (const node of Object.values(record(json.node_errors))) {
    const first = record((record(node).errors as unknown[] | undefined)?.[0]);
    if (typeof first.message === "string")
      parts.push(`${first.message}${first.details ? ` (${first.details})` : ""}`);
    break;
  }
  return parts.join(": ").slice(0, 300);
}

/** A finished prompt's history entry, or null while it is not finished. */
export async function history<I extends ComfyInstance>(
  read: ComfyRead<I>,
  instance: I,
  promptId: string,
) {
  const json = record(await read(instance, "comfyui history", `/history/${promptId}`));
  return promptId in json ? record(json[promptId]) : null;
}

function ended(entry: Record<string, unknown>): ProviderStatus {
  const status = record(entry.status);
  const messages = Array.isArray(status.messages) ? status.messages : [];
  const event = (name: string) =>
    record((messages.find((m) => Array.isArray(m) && m[0] === name) as unknown[])?.[1]);
  const base = { queuePosition: null, progress: null, logs: [] };
  if (status.status_str === "error") {
    if (Object.keys(event("execution_interrupted")).length > 0)
      return { ...base, status: "FAILED", error: M.interrupted };
    const error = event("execution_error");
    const reason = `${error.node_type ?? "a node"}: ${String(error.exception_message ?? "").trim()}`;
    return { ...base, status: "FAILED", error: M.failed(reason.slice(0, 300)) };
  }
  return { ...base, status: "COMPLETED", progress: 100 };
}

/** Where a prompt is when the socket cannot tell: history, else the queue, else lost. */
export async function statusOverHttp<I extends ComfyInstance>(
  read: ComfyRead<I>,
  instance: I,
  promptId: string,
): Promise<ProviderStatus> {
  const done = await history(read, instance, promptId);
  if (done) return ended(done);
  const queue = record(await read(instance, "comfyui queue", "/queue"));
  const idOf = (item: unknown) => (Array.isArray(item) ? String(item[1]) : "");
  const running = Array.isArray(queue.queue_running) ? queue.queue_running : [];
  const pending = Array.isArray(queue.queue_pending) ? queue.queue_pending : [];
  const tracked = instance.socket.prompts.get(promptId);
  if (running.some((item) => idOf(item) === promptId))
    return {
      status: "IN_PROGRESS",
      queuePosition: null,
      progress: tracked ? percentOf(tracked) : null,
      logs: [],
    };
  const ahead = pending
    .filter(Array.isArray)
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .findIndex((item) => idOf(item) === promptId);
  if (ahead >= 0) return { status: "IN_QUEUE", queuePosition: ahead, progress: null, logs: [] };
  // It may have finished between the two reads.
  const late = await history(read, instance, promptId);
  if (late) return ended(late);
  return { status: "FAILED", queuePosition: null, progress: null, logs: [], error: M.lost };
}

/** Per node type, from instances' /object_info: runnable on one, else what the first lacks. */
export function nodeReport(up: { instance: { base: string }; info: ObjectInfo }[]) {
  const nodes: Record<string, { runnable: boolean; missing: string | null; url: string }> = {};
  for (const template of Object.values(TEMPLATES)) {
    if (nodes[template.node]) continue; // the node's plain template decides
    const lacks = up.map((item) => missingFor(template.graph, item.info));
    const runnable = lacks.some((list) => list.length === 0);
    nodes[template.node] = {
      runnable,
      missing: runnable ? null : up.length === 0 ? M.unreachable : (lacks[0] ?? []).join(", "),
      url: up[0]?.instance.base ?? "",
    };
  }
  return nodes;
}
