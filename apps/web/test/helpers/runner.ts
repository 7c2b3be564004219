import { vi } from "vitest";
import { createDocumentStore } from "../../src/features/document/store.ts";
import type { CanvasEdge, CanvasNode } from "../../src/features/document/types.ts";
import type { EventSourceLike } from "../../src/features/runs/job-stream.ts";
import { createRunner, type RunnerDeps } from "../../src/features/runs/runner.ts";
import { createRunsStore } from "../../src/features/runs/runs-store.ts";
import type { JobStatus } from "../../src/services/api.ts";

export { node, values } from "./graph.ts";

/* Runner fixtures: nodes, a scripted event source, a fake API and a wired runner. */

export class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data?: unknown) {
    const event = { data: JSON.stringify(data ?? null) } as MessageEvent<string>;
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
export const openEvents = (url: string) => new FakeEventSource(url);
export const lastSource = () => FakeEventSource.opened.at(-1) as FakeEventSource;

export const job = (patch: Partial<JobStatus> = {}): JobStatus => ({
  requestId: "r1",
  nodeId: "n1",
  workflowId: null,
  model: "flux-pro",
  endpoint: "fal-ai/flux-pro/v1.1",
  status: "IN_QUEUE",
  queue_position: 2,
  logs: [],
  progress: null,
  error: null,
  ...patch,
});

export function fakeApi(overrides: Partial<RunnerDeps["api"]> = {}) {
  return {
    generate: vi.fn(async () => ({
      requestId: "r1",
      endpoint: "fal-ai/flux-pro/v1.1",
      status: "IN_QUEUE" as const,
    })),
    queueStatus: vi.fn(async () => job()),
    cancelJob: vi.fn(async () => job({ status: "CANCELLED" })),
    listJobs: vi.fn(async () => ({ jobs: [] as JobStatus[] })),
    ...overrides,
  };
}

export function setupRunner(api = fakeApi(), nodes: CanvasNode[] = [], edges: CanvasEdge[] = []) {
  const documents = createDocumentStore({ nodes, edges });
  const runs = createRunsStore();
  const showError = vi.fn();
  FakeEventSource.opened = [];
  const runner = createRunner(documents, {
    api,
    runs,
    showError,
    workflowId: () => "wf-1",
    newKey: () => "key-12345678",
    stream: { openEvents },
  });
  const data = (id: string) => documents.getState().nodes.find((n) => n.id === id)?.data;
  return { documents, runs, runner, showError, data, api };
}
