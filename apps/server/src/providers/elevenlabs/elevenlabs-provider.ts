import type { GenerationProvider, ProviderStatus, ResultMedia } from "../provider.ts";
import { ProviderError, type SubmitOutcomeUnknownError } from "../provider.ts";
import { createSafeFetcher } from "../safe-fetch.ts";
import {
  exchangeBytes,
  fatalError as fatal,
  keepAnswer,
  outcomeUnknown,
  retryAfterMs,
  submitPhaseError,
  transientError,
} from "../transport.ts";
import {
  audioFile,
  buildElevenLabsInput,
  DEFAULT_FORMAT,
  ELEVENLABS_ENDPOINTS as E,
  type FetchInput,
  FORMAT,
  jsonOf,
  ELEVENLABS_USER_MESSAGES as M,
  multipart,
  plainText,
  readDetail,
  rec,
  str,
  TTS_MODEL,
  VOICE_ID,
  voiceIdOf,
} from "./elevenlabs-input.ts";

export {
  ELEVENLABS_ENDPOINTS,
  ELEVENLABS_USER_MESSAGES,
  type FetchInput,
  PREMADE_VOICES,
} from "./elevenlabs-input.ts";

/*
 * The ElevenLabs API behind `GenerationProvider`, plain fetch, the key in the `xi-api-key`
 * header only. Every call is synchronous and answers the audio itself (voices/add:
 * `{ voice_id }`): `submit` makes the call, throws its failures (so the engine records them)
 * and keeps the answer in memory under `el-<uuid>`; `status` answers COMPLETED at once;
 * `result` maps the answer to the node's ports, or throws {@link ElevenLabsResultLostError}
 * (`retryable`, `resultLost`) when a restart lost it.
 *
 * Voice clone = voices/add with the downloaded samples, then a TTS of the preview text with the
 * new voice. A failed preview does not fail the node (a rerun would clone again): the result
 * then has the voice id, no audio, and `raw.previewError`.
 *
 * Charges: ElevenLabs bills characters (TTS), generations (SFX) and minutes (isolation) for
 * audio it delivers, only ever in a 2xx body. A 500 or 503 is its own answer that it made
 * nothing (503/`system_busy` is load shedding it says to retry): `retryable`, as for Google's
 * generateContent. A timeout, a dropped or truncated answer, an unreadable 2xx, or a 502/504
 * (a gateway gave up on a backend that may have finished and billed) →
 * {@link SubmitOutcomeUnknownError}. voices/add bills nothing but fills a voice slot: alike.
 */

/** A synchronous answer this process no longer holds (restart, expiry): run the node again. */
export class ElevenLabsResultLostError extends ProviderError {
  readonly resultLost = true;
  constructor(requestId: string) {
    const message = `elevenlabs result ${requestId}: answer not in memory`;
    super(message, "retryable", { userMessage: M.resultLost });
    this.name = "ElevenLabsResultLostError";
  }
}

export interface ElevenLabsProviderOptions {
  /** The ElevenLabs API key (`xi-api-key`). Never appears in errors. */
  key: string;
  /** Replaces `https://api.elevenlabs.io` (tests: the fake's URL). */
  baseUrl?: string;
  /** Fetch for API calls (default: global fetch). */
  fetch?: typeof fetch;
  /** Deadline of one API call, generation and body included. Default 120 s. */
  timeoutMs?: number;
  /** Wait when a 429 has no usable Retry-After. Default 5 s. */
  defaultRetryAfterMs?: number;
  /** How long (default 30 min) and how many (default 32) answers are kept in memory. */
  syncTtlMs?: number;
  maxSyncResults?: number;
  /** Downloads voice samples and isolation inputs; the registry passes a storage reader. */
  fetchInput?: FetchInput;
  /** Size cap of one input file. Default 100 MB. */
  maxInputBytes?: number;
  /** The default `fetchInput` (SSRF-safe, no key): its deadline (30 s) and allowed hosts. */
  downloadTimeoutMs?: number;
  allowMediaHosts?: string[];
}

type Answer = { status: number; headers: Headers; bytes: Uint8Array };
type Audio = { bytes: Uint8Array; contentType: string };
type Kept = { audio: Audio[]; voiceId?: string; raw: Record<string, unknown>; at: number };

const REQUEST_ID = /^el-[\w-]{1,64}$/;
const IDLE = { queuePosition: null, progress: null, logs: [] };

/**
 * Creates the ElevenLabs adapter. Error kinds: 429 → `rate_limited` (Retry-After); 500/503 →
 * `retryable`; timeouts, dropped answers, unreadable 2xx and 502/504 →
 * {@link SubmitOutcomeUnknownError}; refused connections and failed input downloads →
 * `retryable`; `detail.status: "quota_exceeded"` → `fatal` "quota used up"; 401/403 → `fatal`
 * "key rejected" (ElevenLabs' plain reason when it is not about the key, e.g. a missing
 * permission); other 4xx → `fatal` with ElevenLabs' `detail.message` when plain.
 */
export function createElevenLabsProvider(options: ElevenLabsProviderOptions): GenerationProvider {
  const doFetch = options.fetch ?? fetch;
  const base = (options.baseUrl ?? "https://api.elevenlabs.io").replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 120_000;
  const fallbackWait = options.defaultRetryAfterMs ?? 5_000;
  const maxInputBytes = options.maxInputBytes ?? 100 << 20;
  const kept = new Map<string, Kept>();
  const fetchInput: FetchInput =
    options.fetchInput ??
    ((url) => {
      const { allowMediaHosts: allowHosts = [], downloadTimeoutMs: ms = 30_000 } = options;
      const fetcher = createSafeFetcher({ allowHosts, timeoutMs: ms, maxBytes: maxInputBytes });
      return fetcher.fetchBytes(url).finally(() => fetcher.close());
    });

  /** One POST with its own deadline; transport failures come back as a phase. */
  function exchange(path: string, body: FormData | Record<string, unknown>) {
    const json = !(body instanceof FormData);
    const headers = {
      "xi-api-key": options.key,
      ...(json ? { "Content-Type": "application/json" } : {}),
    };
    const init = { method: "POST", headers, body: json ? JSON.stringify(body) : body };
    return exchangeBytes(doFetch, `${base}${path}`, init, timeoutMs);
  }

  /** A non-2xx answer → ProviderError (see the factory's comment). */
  function httpError(what: string, answer: Answer): ProviderError {
    const { status } = answer;
    const message = `${what}: HTTP ${status}`;
    const detail = readDetail(answer.bytes);
    if (detail.status === "quota_exceeded") return fatal(message, M.quota, status);
    const transient = transientError(message, status, retryAfterMs(answer.headers, fallbackWait));
    if (transient) return transient;
    const said = plainText(detail.message, options.key);
    if (status === 401 || status === 403) {
      const aboutKey = detail.status === undefined || /api_key/.test(detail.status);
      return fatal(message, aboutKey ? M.keyRejected : (said ?? M.keyRejected), status);
    }
    return fatal(message, said ?? M.failed, status);
  }

  /** One paid (or voice-creating) call: its 2xx answer, or the error it amounts to. */
  async function call(what: string, path: string, body: FormData | object, unsure: string) {
    const answer = await exchange(path, body as FormData | Record<string, unknown>);
    if (typeof answer === "string") throw submitPhaseError(what, answer, unsure);
    const unknown = (reason: SubmitOutcomeUnknownError["reason"], status: number) =>
      outcomeUnknown(what, reason, unsure, status);
    const { status } = answer;
    if (status >= 200 && status < 300) return { answer, unknown };
    if (status === 502 || status === 504) {
      throw unknown(status === 504 ? "timeout" : "server_error", status);
    }
    throw httpError(what, answer);
  }

  /** An audio call: its audio as a storable file. */
  async function audioCall(what: string, path: string, body: FormData | object, format?: string) {
    const { answer, unknown } = await call(what, path, body, M.outcomeUnknown);
    const type = answer.headers.get("content-type") ?? "";
    if (answer.bytes.length === 0 || /json|^text\//i.test(type)) {
      throw unknown("bad_answer", answer.status);
    }
    return audioFile(answer.bytes, format, type);
  }

  /** Keeps an answer, dropping expired ones and the oldest beyond the cap. */
  const limits = { max: options.maxSyncResults ?? 32, ttlMs: options.syncTtlMs ?? 30 * 60_000 };
  const keep = (entry: Omit<Kept, "at">) => ({ requestId: keepAnswer(kept, "el", entry, limits) });

  const checkId = (what: string, id: string) => {
    if (!REQUEST_ID.test(id)) throw fatal(`${what}: invalid request id`, M.lost);
  };

  return {
    id: "elevenlabs",
    buildInput: buildElevenLabsInput,

    async submit(request) {
      const what = `elevenlabs submit ${request.endpoint}`;
      const { voice_id, output_format, preview_text, ...body } = request.input;
      const format = FORMAT.test(String(output_format)) ? String(output_format) : DEFAULT_FORMAT;
      const query = `?output_format=${format}`;
      const raw = { endpoint: request.endpoint };
      const described = (a: Audio) => ({ contentType: a.contentType, bytes: a.bytes.length });
      const download = (fields: Record<string, string>, files: [string, string][]) =>
        multipart(fields, files, fetchInput, maxInputBytes);
      switch (request.endpoint) {
        case E.tts:
        case E.sfx: {
          const path =
            request.endpoint === E.tts
              ? `/v1/text-to-speech/${voiceIdOf(voice_id)}${query}`
              : `/v1/sound-generation${query}`;
          const audio = await audioCall(what, path, body, format);
          return keep({ audio: [audio], raw: { ...raw, ...described(audio) } });
        }
        case E.isolation: {
          const form = await download({}, [["audio", String(body.audio ?? "")]]);
          const audio = await audioCall(what, "/v1/audio-isolation", form);
          return keep({ audio: [audio], raw: { ...raw, ...described(audio) } });
        }
        case E.voiceAdd: {
          const urls = Array.isArray(body.files) ? body.files.map(String) : [];
          const name = str(body.name) ?? "My voice";
          const denoise = String(body.remove_background_noise !== false);
          const files = urls.map((url): [string, string] => ["files", url]);
          const form = await download({ name, remove_background_noise: denoise }, files);
          const { answer, unknown } = await call(what, "/v1/voices/add", form, M.voiceUnknown);
          const voiceId = rec(jsonOf(answer.bytes)).voice_id;
          if (typeof voiceId !== "string" || !VOICE_ID.test(voiceId)) {
            throw unknown("bad_answer", answer.status);
          }
          const made = { ...raw, voice_id: voiceId };
          const text = str(preview_text);
          if (!text) return keep({ audio: [], voiceId, raw: made });
          const previewPath = `/v1/text-to-speech/${voiceId}?output_format=${DEFAULT_FORMAT}`;
          try {
            const previewBody = { text, model_id: TTS_MODEL };
            const audio = await audioCall(`${what} preview`, previewPath, previewBody);
            return keep({ audio: [audio], voiceId, raw: { ...made, preview: described(audio) } });
          } catch (err) {
            const reason = (err instanceof ProviderError && err.options.userMessage) || M.failed;
            return keep({ audio: [], voiceId, raw: { ...made, previewError: reason } });
          }
        }
        default:
          throw fatal(`${what}: unknown endpoint`, M.unknownEndpoint);
      }
    },

    async status(_endpoint, requestId): Promise<ProviderStatus> {
      checkId(`elevenlabs status ${requestId}`, requestId);
      // A missing answer is reported by `result`, which can say what to do about it.
      return { ...IDLE, status: "COMPLETED" };
    },

    async result(_endpoint, requestId, context) {
      checkId(`elevenlabs result ${requestId}`, requestId);
      const entry = kept.get(requestId);
      if (!entry) throw new ElevenLabsResultLostError(requestId);
      const ports = context?.outputs;
      const audioPort = ports ? ports.find((p) => p.type === "audio")?.id : "audio";
      const textPort = ports ? ports.find((p) => p.type === "text")?.id : "voiceId";
      const media: ResultMedia[] = audioPort
        ? entry.audio.map(({ bytes, contentType }) => ({ output: audioPort, bytes, contentType }))
        : [];
      const values = entry.voiceId && textPort ? { [textPort]: entry.voiceId } : undefined;
      return { raw: entry.raw, media, ...(values ? { values } : {}) };
    },

    async cancel(_endpoint, requestId) {
      // The call already finished in `submit`: there is only our copy to drop.
      kept.delete(requestId);
    },
  };
}
