import type { ProviderId } from "@atelier/core";

/** SPEC §4's queue states, as every provider's answers are normalised to. */
export type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED";

export interface JobLog {
  message: string;
  level?: string;
  timestamp?: string;
}

/** What a status call learned about one provider request. */
export interface ProviderStatus {
  status: JobStatus;
  queuePosition: number | null;
  /** 0–100, when the provider reports it. */
  progress: number | null;
  /** The latest log lines; they may repeat an earlier read's (jobs/logs.ts adds new ones only). */
  logs: JobLog[];
  /** FAILED only: text safe to show the user (never secrets or stack traces). */
  error?: string;
}

/** One node run as the engine resolved it, for an adapter to build its provider's request. */
export interface NodeRun {
  /** Catalogue node type (e.g. `runway-video`). */
  nodeType: string;
  /** The endpoint chosen from the catalogue entry (default or a variant). */
  endpoint: string;
  /**
   * Connected inputs by port id: text, or an absolute http(s) URL for media (our storage
   * URLs included); a list for `multiple` inputs.
   */
  inputs: Record<string, string | string[]>;
  /** The node's parameters, parsed by its catalogue schema (defaults filled in). */
  params: Record<string, unknown>;
}

export interface SubmitRequest {
  /** Endpoint id from the catalogue (e.g. `fal-ai/flux/dev`). */
  endpoint: string;
  /** The model's own request body, already mapped from the node's inputs and params. */
  input: Record<string, unknown>;
  /** Where the provider should call back, when the server has a public URL. */
  webhookUrl?: string | null;
  /** Stable per job: providers that support it de-duplicate on it. */
  idempotencyKey: string;
}

/** One media file a result holds: a URL to copy into our storage, or bytes we made. */
export interface ResultMedia {
  /** The node's output port id it belongs to (`image`, `video`, `model`, `audio`…). */
  output: string;
  url?: string;
  bytes?: Uint8Array;
  contentType?: string;
}

export interface ProviderResult {
  /** The provider's own result JSON, kept for debugging and non-media outputs. */
  raw: unknown;
  media: ResultMedia[];
  /** Non-media outputs by port id (e.g. `text`). */
  values?: Record<string, unknown>;
}

/**
 * Why a provider call failed. `retryable` calls may be repeated (never a submit whose
 * outcome is unknown); `rate_limited` waits `retryAfterMs`; `fatal` ends the job.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: "retryable" | "rate_limited" | "fatal",
    readonly options: { userMessage?: string; retryAfterMs?: number; status?: number } = {},
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/**
 * A submit that may or may not have created a paid job (timeout, dropped connection or 5xx
 * after the request was sent). Its kind is `fatal` so nothing resubmits blindly; the job
 * code tells it apart and reconciles. Submits that provably never left (connection refused,
 * DNS failure) are plain `retryable` errors instead.
 */
export class SubmitOutcomeUnknownError extends ProviderError {
  readonly outcomeUnknown = true;
  constructor(
    message: string,
    readonly reason: "timeout" | "connection_lost" | "server_error" | "bad_answer",
    options: { userMessage?: string; status?: number } = {},
  ) {
    super(message, "fatal", options);
    this.name = "SubmitOutcomeUnknownError";
  }
}

/** Output ports of the node being run, so a result's media land on the right ports. */
export interface ResultContext {
  outputs: readonly { id: string; type: string }[];
  /** The body sent at submit, for providers that make the result themselves (local). */
  request?: Record<string, unknown>;
}

/** DESIGN §5: the one interface every generation service is adapted to. */
export interface GenerationProvider {
  readonly id: ProviderId | "local";
  /** The provider's own request body for a node run (field names, shapes, defaults). */
  buildInput(run: NodeRun): Record<string, unknown>;
  submit(request: SubmitRequest): Promise<{ requestId: string }>;
  status(endpoint: string, requestId: string): Promise<ProviderStatus>;
  result(endpoint: string, requestId: string, context?: ResultContext): Promise<ProviderResult>;
  cancel(endpoint: string, requestId: string): Promise<void>;
  /** Ends what the adapter keeps open (ComfyUI's progress sockets). */
  close?(): void;
  /** What the last contact showed, for a provider that can tell (ComfyUI). */
  lastKnownHealth?(): "ok" | "down" | "unknown";
  /** From what it last learnt, without a call: node types it cannot run, with why. */
  knownLacks?(): Record<string, string>;
  /** A check made now: its instances, and per node type whether it can run here. */
  capabilities?(): Promise<ProviderCapabilities>;
}

export interface ProviderCapabilities {
  instances: { url: string; ok: boolean; error: string | null }[];
  nodes: Record<string, { runnable: boolean; missing: string | null }>;
}
