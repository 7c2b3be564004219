import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ELEVENLABS_USER_MESSAGES as MSG } from "../src/providers/elevenlabs/elevenlabs-provider.ts";
import { type ProviderError, SubmitOutcomeUnknownError } from "../src/providers/provider.ts";
import { OutboundFetchError } from "../src/providers/safe-fetch.ts";
import type { FakeElevenLabsFault } from "./fakes/elevenlabs-server.ts";
import {
  CLONE,
  CLONE_PORTS,
  callsDuring,
  el,
  failure,
  provider,
  runs,
  submitRun,
  useFakeElevenLabs,
} from "./helpers/elevenlabs-harness.ts";

// HTTP, transport and input faults, and keys never echoed.
useFakeElevenLabs();

describe("elevenlabs provider: faults", () => {
  const unknown = (reason: string, userMessage: string = MSG.outcomeUnknown) => ({
    kind: "fatal",
    reason,
    outcomeUnknown: true,
    options: expect.objectContaining({ userMessage }),
  });
  const fatal = (userMessage: string, status: number) => ({
    kind: "fatal",
    options: { status, userMessage },
  });
  const plain = "The text contains unsupported tags.";
  const cases: Array<[string, FakeElevenLabsFault, object]> = [
    ["500", { kind: "http", status: 500 }, { kind: "retryable", options: { status: 500 } }],
    ["503", { kind: "http", status: 503 }, { kind: "retryable", options: { status: 503 } }],
    ["502", { kind: "http", status: 502 }, unknown("server_error")],
    ["504", { kind: "http", status: 504 }, unknown("timeout")],
    [
      "429",
      { kind: "rate_limit" },
      { kind: "rate_limited", options: { status: 429, retryAfterMs: 7000 } },
    ],
    [
      "429 without Retry-After",
      { kind: "rate_limit", retryAfter: null, status: "too_many_concurrent_requests" },
      { kind: "rate_limited", options: { status: 429, retryAfterMs: 5000 } },
    ],
    ["hang", { kind: "hang" }, unknown("timeout")],
    ["reset", { kind: "reset" }, unknown("connection_lost")],
    ["truncated audio", { kind: "truncated" }, unknown("connection_lost")],
    ["empty 200", { kind: "empty" }, unknown("bad_answer")],
    ["400 plain", { kind: "bad_request" }, fatal(plain, 400)],
    ["422 list", { kind: "bad_request", status: 422 }, fatal("field required", 422)],
    [
      "400 structured",
      { kind: "bad_request", detail: { status: "x", message: { a: 1 } } },
      fatal(MSG.failed, 400),
    ],
    [
      "400 with a URL",
      { kind: "bad_request", detail: { message: "See https://elevenlabs.io/x?token=s" } },
      fatal(MSG.failed, 400),
    ],
    [
      "401 invalid key",
      {
        kind: "bad_request",
        status: 401,
        detail: { status: "invalid_api_key", message: "Invalid API key" },
      },
      fatal(MSG.keyRejected, 401),
    ],
    [
      "403 bare",
      { kind: "bad_request", status: 403, detail: "Forbidden" },
      fatal(MSG.keyRejected, 403),
    ],
    [
      "401 missing permission",
      {
        kind: "bad_request",
        status: 401,
        detail: { status: "missing_permissions", message: "The API key lacks text_to_speech." },
      },
      fatal("The API key lacks text_to_speech.", 401),
    ],
    ["quota", { kind: "quota_exceeded" }, fatal(MSG.quota, 401)],
  ];

  it.each(cases)("text-to-speech %s", async (_name, fault, expected) => {
    el.fault("tts", fault);
    let err: ProviderError | undefined;
    const calls = await callsDuring(async () => {
      err = await failure(submitRun(runs.tts(), provider({ timeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(err instanceof SubmitOutcomeUnknownError).toBe("outcomeUnknown" in expected);
    expect(calls.tts).toBe(1);
  });

  const makers = { sfx: runs.sfx, isolation: runs.isolation, voices: runs.clone };
  it.each<["sfx" | "isolation" | "voices", FakeElevenLabsFault, object]>([
    ["sfx", { kind: "hang" }, unknown("timeout")],
    ["sfx", { kind: "quota_exceeded" }, fatal(MSG.quota, 401)],
    ["isolation", { kind: "truncated" }, unknown("connection_lost")],
    [
      "isolation",
      { kind: "rate_limit", retryAfter: "2" },
      { kind: "rate_limited", options: { retryAfterMs: 2000 } },
    ],
    ["voices", { kind: "http", status: 503 }, { kind: "retryable" }],
    ["voices", { kind: "malformed" }, unknown("bad_answer", MSG.voiceUnknown)],
    ["voices", { kind: "truncated" }, unknown("connection_lost", MSG.voiceUnknown)],
    ["voices", { kind: "bad_request", status: 422 }, fatal("field required", 422)],
  ])("%s %j", async (route, fault, expected) => {
    const make = makers[route];
    el.fault(route, fault);
    let err: ProviderError | undefined;
    const calls = await callsDuring(async () => {
      err = await failure(submitRun(make(), provider({ timeoutMs: 300 })));
    });
    expect(err).toMatchObject(expected);
    expect(calls[route]).toBe(1);
    expect(calls.tts).toBe(0); // no preview after a failed voices/add
  });

  it("a failed preview keeps the new voice: voice id without audio, the reason in raw", async () => {
    el.fault("tts", { kind: "quota_exceeded" });
    const p = provider();
    let requestId = "";
    const calls = await callsDuring(async () => {
      requestId = await submitRun(runs.clone(), p);
    });
    expect(calls).toMatchObject({ voices: 1, tts: 1 });
    const result = await p.result(CLONE, requestId, { outputs: CLONE_PORTS });
    expect(result).toMatchObject({ media: [], values: { voiceId: el.voices.at(-1) } });
    expect(result.raw).toMatchObject({ previewError: MSG.quota });
  });

  it("a wrong key is rejected without echoing it; an unknown voice shows ElevenLabs' words", async () => {
    const wrong = await failure(submitRun(runs.tts(), provider({ key: "wrong-secret" })));
    expect(wrong).toMatchObject(fatal(MSG.keyRejected, 401));
    expect(wrong.message).not.toContain("wrong-secret");
    const voice = "Xb7hH8MSUJpSbSDYk0k2";
    const missing = await failure(submitRun(runs.tts({ voice }), provider()));
    expect(missing.options.userMessage).toBe(`A voice with the voice_id ${voice} was not found.`);
    el.fault("tts", { kind: "bad_request", detail: { message: `Key ${el.key} is disabled` } });
    expect((await failure(submitRun(runs.tts(), provider()))).options.userMessage).toBe(MSG.failed);
  });

  it("connection refused is retryable: the request provably never left", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(
      submitRun(runs.tts(), provider({ baseUrl: `http://127.0.0.1:${port}` })),
    );
    expect(err).not.toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(err.kind).toBe("retryable");
  });

  it.each<[string, unknown, string, string | undefined]>([
    ["timeout", new OutboundFetchError("timeout", "t"), "retryable", undefined],
    ["HTTP 503", new OutboundFetchError("http_error", "h", 503), "retryable", undefined],
    ["HTTP 404", new OutboundFetchError("http_error", "h", 404), "fatal", MSG.input],
    ["too large", new OutboundFetchError("too_large", "l"), "fatal", MSG.tooLarge],
  ])("an input download failing with %s sends nothing", async (_n, thrown, kind, userMessage) => {
    const p = provider({ fetchInput: () => Promise.reject(thrown) });
    let err: ProviderError | undefined;
    const calls = await callsDuring(async () => {
      err = await failure(submitRun(runs.clone(), p));
    });
    expect(err).toMatchObject({ kind, options: userMessage ? { userMessage } : {} });
    expect(calls).toEqual({ tts: 0, sfx: 0, voices: 0, isolation: 0 });
  });

  it("an input over the size cap is fatal before anything is sent", async () => {
    const calls = await callsDuring(async () => {
      const err = await failure(submitRun(runs.isolation(), provider({ maxInputBytes: 100 })));
      expect(err).toMatchObject({ kind: "fatal", options: { userMessage: MSG.tooLarge } });
    });
    expect(calls.isolation).toBe(0);
  });
});
