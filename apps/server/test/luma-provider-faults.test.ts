import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { LUMA_USER_MESSAGES } from "../src/providers/luma/luma-provider.ts";
import { SubmitOutcomeUnknownError } from "../src/providers/provider.ts";
import type { LumaFault } from "./fakes/luma-server.ts";
import {
  completed,
  failure,
  luma,
  provider,
  submit,
  useFakeLuma,
  VIDEO,
} from "./helpers/luma-harness.ts";

// Submit, status, result and cancel faults.
useFakeLuma();

describe("luma provider: submit faults never lead to a second create", () => {
  const unknown = (reason: string) => ({ kind: "fatal", reason, outcomeUnknown: true });
  it.each<[string, LumaFault, object]>([
    ...([500, 502, 503] as const).map((status): [string, LumaFault, object] => [
      `HTTP ${status}`,
      { kind: "http", status },
      { ...unknown("server_error"), options: expect.objectContaining({ status }) },
    ]),
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["connection reset", { kind: "reset" }, unknown("connection_lost")],
    ["truncated body", { kind: "truncated" }, unknown("connection_lost")],
    ["malformed JSON", { kind: "malformed" }, unknown("bad_answer")],
    ["2xx without id", { kind: "no_id" }, unknown("bad_answer")],
    [
      "429",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { retryAfterMs: 7000, status: 429 } },
    ],
    [
      "400 with a text detail",
      { kind: "http", status: 400, detail: "Prompt is too short" },
      { kind: "fatal", options: { status: 400, userMessage: "Prompt is too short" } },
    ],
    [
      "400 with a structured detail",
      { kind: "http", status: 400, detail: [{ loc: ["body"], msg: "bad" }] },
      { kind: "fatal", options: { status: 400, userMessage: LUMA_USER_MESSAGES.failed } },
    ],
    [
      "403",
      { kind: "http", status: 403 },
      { kind: "fatal", options: { status: 403, userMessage: LUMA_USER_MESSAGES.refused } },
    ],
  ])("%s", async (_name, fault, expected) => {
    const before = luma.counters.creates[VIDEO] ?? 0;
    luma.fault("create", fault);
    const err = await failure(submit(provider({ timeoutMs: 300 })));
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect((luma.counters.creates[VIDEO] ?? 0) - before).toBe(1);
  });

  it("a refused connection is retryable: the request never left", async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(submit(provider({ baseUrl: `http://127.0.0.1:${port}` })));
    expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.kind).toBe("retryable");
  });

  it("a wrong key is fatal, and no key is ever echoed", async () => {
    const err = await failure(submit(provider({ key: "wrong-secret" })));
    expect(err).toMatchObject({
      kind: "fatal",
      options: { userMessage: LUMA_USER_MESSAGES.keyRejected },
    });
    expect(err.message).not.toContain("wrong-secret");
    luma.fault("create", { kind: "http", status: 400, detail: `bad key ${luma.key}` });
    expect((await failure(submit())).options.userMessage).toBe("bad key ***");
  });
});

describe("luma provider: status, result and cancel", () => {
  // A whole-response fault serves no step; a mangled answer did, so the script moved on.
  it.each<[string, string, LumaFault, string]>([
    ["500", "retryable", { kind: "http", status: 500 }, "IN_QUEUE"],
    ["502", "retryable", { kind: "http", status: 502 }, "IN_QUEUE"],
    ["503", "retryable", { kind: "http", status: 503 }, "IN_QUEUE"],
    ["429", "rate_limited", { kind: "rate_limit", retryAfter: "3" }, "IN_QUEUE"],
    ["hang", "retryable", { kind: "hang" }, "IN_QUEUE"],
    ["reset", "retryable", { kind: "reset" }, "IN_QUEUE"],
    ["truncated", "retryable", { kind: "truncated" }, "IN_PROGRESS"],
    ["malformed JSON", "retryable", { kind: "malformed" }, "IN_PROGRESS"],
  ])("status %s → %s", async (_n, kind, fault, next) => {
    const p = provider({ timeoutMs: 300 });
    const { requestId } = await submit(p);
    luma.fault("get", fault);
    const err = await failure(p.status(VIDEO, requestId));
    expect(err.kind).toBe(kind);
    if (kind === "rate_limited") expect(err.options.retryAfterMs).toBe(3000);
    expect((await p.status(VIDEO, requestId)).status).toBe(next);
    expect(luma.counters.polls[requestId]).toBe(2);
  });

  it("failed → FAILED with Luma's reason (or the older state_reason, or a generic text)", async () => {
    const p = provider();
    const reason = "400: prompt not allowed because advanced moderation failed";
    luma.script("next", [{ state: "failed", failureReason: reason }]);
    const a = await submit(p);
    expect(await p.status(VIDEO, a.requestId)).toMatchObject({ status: "FAILED", error: reason });
    expect(await failure(p.result(VIDEO, a.requestId))).toMatchObject({
      kind: "fatal",
      options: { userMessage: reason },
    });
    luma.script("next", [{ state: "failed", failureReason: "old style", legacyReason: true }]);
    const b = await submit(p);
    expect((await p.status(VIDEO, b.requestId)).error).toBe("old style");
    luma.fault("get", { kind: "failed" });
    expect((await p.status(VIDEO, b.requestId)).error).toBe(LUMA_USER_MESSAGES.failed);
    luma.fault("get", { kind: "failed", reason: `leak\n${luma.key}` });
    expect((await p.status(VIDEO, b.requestId)).error).toBe("leak ***");
  });

  it.each<[string, string, LumaFault, string | undefined]>([
    ["a private asset URL", "fatal", { kind: "private_url" }, LUMA_USER_MESSAGES.failed],
    [
      "a file: asset URL",
      "fatal",
      { kind: "private_url", url: "file:///etc/passwd" },
      LUMA_USER_MESSAGES.failed,
    ],
    ["503", "retryable", { kind: "http", status: 503 }, undefined],
    ["hang", "retryable", { kind: "hang" }, undefined],
    ["malformed", "retryable", { kind: "malformed" }, undefined],
  ])("result %s → %s", async (_n, kind, fault, userMessage) => {
    const requestId = await completed();
    luma.fault("get", fault);
    const err = await failure(provider({ timeoutMs: 300 }).result(VIDEO, requestId));
    expect(err.kind).toBe(kind);
    expect(err.options.userMessage).toBe(userMessage);
  });

  it("a result before completion is retryable; completed without a fitting asset is fatal", async () => {
    const { requestId } = await submit();
    expect((await failure(provider().result(VIDEO, requestId))).kind).toBe("retryable");
    const id = await completed();
    const err = await failure(
      provider().result(VIDEO, id, { outputs: [{ id: "image", type: "image" }] }),
    );
    expect(err).toMatchObject({
      kind: "fatal",
      options: { userMessage: LUMA_USER_MESSAGES.failed },
    });
  });

  it("cancel deletes once; a gone generation cancels quietly and reads as lost", async () => {
    const p = provider();
    const { requestId } = await submit(p);
    const before = luma.counters.deletes;
    await p.cancel(VIDEO, requestId);
    expect(luma.counters.deletes - before).toBe(1);
    expect(await failure(p.status(VIDEO, requestId))).toMatchObject({
      kind: "fatal",
      options: { status: 404, userMessage: LUMA_USER_MESSAGES.lost },
    });
    await expect(p.cancel(VIDEO, requestId)).resolves.toBeUndefined();
    luma.fault("delete", { kind: "http", status: 503 });
    expect((await failure(p.cancel(VIDEO, requestId))).kind).toBe("retryable");
    luma.fault("delete", { kind: "rate_limit", retryAfter: "11" });
    expect(await failure(p.cancel(VIDEO, requestId))).toMatchObject({
      kind: "rate_limited",
      options: { retryAfterMs: 11_000 },
    });
    expect((await failure(p.status(VIDEO, "../etc"))).kind).toBe("fatal");
  });
});
