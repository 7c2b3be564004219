import WebSocket from "ws";

/** What the WebSocket told about one prompt this process submitted. */
export interface PromptProgress {
  phase: "queued" | "running" | "done" | "failed" | "interrupted";
  /** Nodes in the prompt, and those finished (run or cached). */
  total: number;
  done: Set<string>;
  current: string | null;
  /** The current node's own progress (sampler steps). */
  value: number;
  max: number;
  error?: string;
}

const RECONNECT_MS = [250, 1000, 2000, 5000];

/**
 * One ComfyUI's `ws /ws?clientId=` for the prompts this process submitted: executing,
 * progress, executed, cached, success, error and interrupted events, kept per prompt. Open
 * only while a tracked prompt is unfinished; reconnects (with the same client id, so ComfyUI
 * resends the node it is running). When it is down, callers read `/history` and `/queue`.
 */
export class ProgressSocket {
  private socket: WebSocket | null = null;
  private reconnects = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  readonly prompts = new Map<string, PromptProgress>();
  /** Events of prompts not tracked yet: a run may start before its submit is answered. */
  private early = new Map<string, string[]>();
  private waiters: (() => void)[] = [];
  connected = false;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Follows a prompt just submitted (its node count makes the overall progress). */
  track(promptId: string, nodeCount: number) {
    this.prompts.set(promptId, {
      phase: "queued",
      total: nodeCount,
      done: new Set(),
      current: null,
      value: 0,
      max: 0,
    });
    for (const text of this.early.get(promptId) ?? []) this.handle(text);
    this.early.delete(promptId);
    this.open();
  }

  /** Opens the socket before a submit, so no event of the new prompt is missed (≤ `ms`). */
  async ready(ms = 2000): Promise<void> {
    if (this.connected || this.closed) return;
    this.open(true);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** What is known about a prompt — only while the socket is up (else it may be stale). */
  read(promptId: string): PromptProgress | null {
    return this.connected ? (this.prompts.get(promptId) ?? null) : null;
  }

  forget(promptId: string) {
    this.prompts.delete(promptId);
    if (!this.active()) this.disconnect();
  }

  close() {
    this.closed = true;
    this.disconnect();
  }

  private active() {
    for (const prompt of this.prompts.values())
      if (prompt.phase === "queued" || prompt.phase === "running") return true;
    return false;
  }

  private open(force = false) {
    if (this.socket || this.closed || this.timer || (!force && !this.active())) return;
    const socket = new WebSocket(this.url, { headers: this.headers, handshakeTimeout: 10_000 });
    this.socket = socket;
    socket.on("open", () => {
      this.connected = true;
      this.reconnects = 0;
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on("message", (data, binary) => {
      // Binary frames are previews; only JSON events matter here.
      if (!binary) this.handle(data.toString());
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      this.socket = null;
      this.connected = false;
      for (const wake of this.waiters.splice(0)) wake();
      if (this.closed || !this.active()) return;
      const wait = RECONNECT_MS[Math.min(this.reconnects++, RECONNECT_MS.length - 1)] as number;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.open();
      }, wait);
      this.timer.unref();
    });
  }

  private disconnect() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.socket?.close();
    this.socket = null;
    this.connected = false;
  }

  private handle(text: string) {
    let message: { type?: unknown; data?: Record<string, unknown> };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const data = message.data ?? {};
    const id = String(data.prompt_id ?? "");
    const prompt = this.prompts.get(id);
    if (!prompt) {
      if (!id) return;
      // Kept for a prompt whose submit answer is on its way (a few, briefly).
      if (!this.early.has(id) && this.early.size >= 20)
        this.early.delete(this.early.keys().next().value as string);
      this.early.set(id, [...(this.early.get(id) ?? []), text].slice(-200));
      return;
    }
    switch (message.type) {
      case "execution_start":
        prompt.phase = "running";
        break;
      case "execution_cached":
        for (const node of Array.isArray(data.nodes) ? data.nodes : [])
          prompt.done.add(String(node));
        break;
      case "executing":
        if (prompt.current) prompt.done.add(prompt.current);
        // `node: null` ends the prompt (older ComfyUIs send no execution_success).
        if (data.node === null || data.node === undefined) prompt.phase = "done";
        else {
          prompt.phase = "running";
          prompt.current = String(data.node);
          prompt.value = 0;
          prompt.max = 0;
        }
        break;
      case "progress":
        prompt.phase = "running";
        prompt.value = Number(data.value) || 0;
        prompt.max = Number(data.max) || 0;
        break;
      case "executed":
        prompt.done.add(String(data.node));
        break;
      case "execution_success":
        prompt.phase = "done";
        break;
      case "execution_error":
        prompt.phase = "failed";
        prompt.error = String(data.exception_message ?? "").trim();
        break;
      case "execution_interrupted":
        prompt.phase = "interrupted";
        break;
    }
    if (!this.active()) this.disconnect();
  }
}

/** Overall progress in percent: nodes finished plus the running node's share, below 100. */
export function percentOf(prompt: PromptProgress): number {
  const share = prompt.max > 0 ? Math.min(1, prompt.value / prompt.max) : 0;
  const total = Math.max(1, prompt.total);
  return Math.min(99, Math.floor((100 * (prompt.done.size + share)) / total));
}
