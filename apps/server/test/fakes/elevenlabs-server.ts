import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { renderAudio } from "../../src/providers/local/media/index.ts";
import {
  applyFault as applyCommon,
  faultQueue,
  listen,
  parseBody,
  readForm,
  readRaw,
  retryAfter,
  sendBytes,
} from "./fake-http.ts";

/*
 * A fake ElevenLabs API on 127.0.0.1 with the four synchronous calls the adapter makes:
 * `POST /v1/text-to-speech/{voice_id}` and `/v1/sound-generation` (JSON → audio),
 * `/v1/voices/add` (multipart → `{ voice_id }`) and `/v1/audio-isolation` (multipart → audio).
 * Every call needs the `xi-api-key` header. Audio is real: `pcm_<rate>` formats answer raw
 * PCM16 mono samples, isolation a WAV (audio/wav), both from `renderAudio`; `mp3_*` formats
 * answer fixed MP3-labelled bytes ({@link FAKE_MP3}), opaque to everyone. Voices are premade
 * (Rachel's id) or made by voices/add. `GET /media/{name}.wav` serves a WAV sample without a
 * key, for input downloads. Faults are switched per route; answers to points the docs leave
 * open (e.g. the status of `voice_not_found`) are this fake's.
 */

export type FakeElevenLabsRoute = "tts" | "sfx" | "voices" | "isolation" | "media";

export type FakeElevenLabsFault =
  /** Answers `{ detail: { status, message } }` with this status. */
  | { kind: "http"; status: 500 | 502 | 503 | 504 }
  /** 429; Retry-After "7" unless given (null: none); detail.status as given. */
  | { kind: "rate_limit"; retryAfter?: string | null; status?: string }
  /** 4xx with this `detail` (default: 400 with a plain message; 422: FastAPI's list). */
  | { kind: "bad_request"; status?: 400 | 401 | 403 | 404 | 422; detail?: unknown }
  /** 401 `{ detail: { status: "quota_exceeded", message } }`. */
  | { kind: "quota_exceeded" }
  /** Never answers until the client gives up or the fake closes. */
  | { kind: "hang" }
  /** Drops the connection without answering. */
  | { kind: "reset" }
  /** Declares the full Content-Length, sends half, drops the connection (after the work). */
  | { kind: "truncated" }
  /** voices/add only: 200 with broken JSON (the voice is still created). */
  | { kind: "malformed" }
  /** 200 with an empty body. */
  | { kind: "empty" };

/** One multipart part as received: a field's value, or a file's name, type and size. */
export type FakePart =
  | { field: string; value: string }
  | { field: string; filename: string; contentType: string; size: number };

/** One request as received; the key itself is never recorded. */
export interface FakeElevenLabsRequest {
  route: FakeElevenLabsRoute | "other";
  method: string;
  path: string;
  query: Record<string, string>;
  /** JSON body, multipart parts, or null. */
  body: unknown;
  authorized: boolean;
}

export interface FakeElevenLabsCounters {
  /** Requests received per route, faulted, refused or not. */
  calls: Record<FakeElevenLabsRoute, number>;
  /** Successful answers per route (audio made, voice created). */
  served: Record<FakeElevenLabsRoute, number>;
  unauthorized: number;
}

export interface FakeElevenLabs {
  url: string;
  key: string;
  counters: FakeElevenLabsCounters;
  requests: FakeElevenLabsRequest[];
  /** Voice ids voices/add created, in order. */
  voices: string[];
  /** Makes the next `times` calls to a route fail this way. */
  fault(route: FakeElevenLabsRoute, fault: FakeElevenLabsFault, times?: number): void;
  /** A keyless URL of a WAV sample this fake serves (for input downloads). */
  mediaUrl(name?: string): string;
  close(): Promise<void>;
}

/** The bytes every `mp3_*` answer carries: an ID3 tag and one silent-frame header. */
export const FAKE_MP3 = Buffer.concat([
  Buffer.from("ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000", "latin1"),
  Buffer.from([0xff, 0xfb, 0x90, 0x64]),
  Buffer.alloc(413),
]);
/** Rachel, the only premade voice this fake knows. */
export const FAKE_PREMADE_VOICE = "21m00Tcm4TlvDq8ikWAM";

const ROUTES: Record<string, FakeElevenLabsRoute> = {
  "/v1/sound-generation": "sfx",
  "/v1/voices/add": "voices",
  "/v1/audio-isolation": "isolation",
};
const zero = (): Record<FakeElevenLabsRoute, number> => ({
  tts: 0,
  sfx: 0,
  voices: 0,
  isolation: 0,
  media: 0,
});

/** Starts the fake on an ephemeral loopback port. */
export async function startFakeElevenLabs(): Promise<FakeElevenLabs> {
  const key = `fake-elevenlabs-key-${randomUUID()}`;
  const counters: FakeElevenLabsCounters = { calls: zero(), served: zero(), unauthorized: 0 };
  const requests: FakeElevenLabsRequest[] = [];
  const voices: string[] = [];
  const known = new Set([FAKE_PREMADE_VOICE]);
  const faults = faultQueue<FakeElevenLabsRoute, FakeElevenLabsFault>();
  const takeFault = faults.take;
  const wav = (rate = 16_000, prompt = "") =>
    renderAudio({ seed: 7, durationSeconds: 0.25, sampleRate: rate, kind: "speech", prompt });
  let base = "";

  /** Sends a body, cut in half by a `truncated` fault. */
  const send = (res: ServerResponse, status: number, type: string, body: Buffer, cut = false) =>
    sendBytes(res, status, type, body, cut ? { kind: "truncated" } : undefined);
  const json = (res: ServerResponse, status: number, body: unknown, cut = false) =>
    send(res, status, "application/json", Buffer.from(JSON.stringify(body)), cut);
  const detail = (status: string, message: string) => ({ detail: { status, message } });

  /** Answers faults that replace the whole response; true when the request is handled. */
  const applyFault = (res: ServerResponse, fault?: FakeElevenLabsFault) =>
    applyCommon(res, fault, (f) => vendorFault(res, f));
  function vendorFault(res: ServerResponse, fault: FakeElevenLabsFault): boolean {
    switch (fault.kind) {
      case "http":
        json(res, fault.status, detail("internal_error", "An internal error occurred."));
        return true;
      case "rate_limit":
        retryAfter(res, fault.retryAfter);
        json(res, 429, detail(fault.status ?? "system_busy", "The system is busy."));
        return true;
      case "bad_request": {
        const status = fault.status ?? 400;
        const fallback =
          status === 422
            ? [{ loc: ["body", "text"], msg: "field required", type: "value_error.missing" }]
            : { status: "invalid_request", message: "The text contains unsupported tags." };
        json(res, status, { detail: fault.detail ?? fallback });
        return true;
      }
      case "quota_exceeded":
        json(
          res,
          401,
          detail(
            "quota_exceeded",
            "This request exceeds your quota of 10000. You have 3 credits remaining, while 91 credits are required for this request.",
          ),
        );
        return true;
      case "empty":
        send(res, 200, "audio/mpeg", Buffer.alloc(0));
        return true;
      default:
        return false;
    }
  }

  /** Audio in the asked `output_format`: raw PCM for `pcm_<rate>`, else the MP3 bytes. */
  function audio(format: string, prompt: string): [Buffer, string] {
    const pcm = /^pcm_(\d+)$/.exec(format);
    if (pcm) return [wav(Number(pcm[1]), prompt).subarray(44), "audio/pcm"];
    return [FAKE_MP3, "audio/mpeg"];
  }

  async function parts(req: IncomingMessage, raw: Buffer): Promise<FakePart[] | null> {
    const type = req.headers["content-type"] ?? "";
    if (!type.startsWith("multipart/form-data")) return null;
    try {
      const form = await readForm(raw, type);
      return [...form].map(([field, v]) =>
        typeof v === "string"
          ? { field, value: v }
          : { field, filename: v.name, contentType: v.type, size: v.size },
      );
    } catch {
      return null;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", base);
    const path = url.pathname;
    const raw = await readRaw(req);
    const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(path);
    const route: FakeElevenLabsRoute | "other" = path.startsWith("/media/")
      ? "media"
      : tts
        ? "tts"
        : (ROUTES[path] ?? "other");
    const body: unknown = (await parts(req, raw)) ?? parseBody(raw);
    const authorized = req.headers["xi-api-key"] === key;
    const query = Object.fromEntries(url.searchParams);
    requests.push({ route, method: req.method ?? "", path, query, body, authorized });
    if (route !== "other") counters.calls[route]++;

    if (route === "media" && req.method === "GET") {
      if (await applyFault(res, takeFault("media"))) return;
      counters.served.media++;
      return send(res, 200, "audio/wav", wav());
    }
    if (!authorized) {
      counters.unauthorized++;
      return json(res, 401, detail("invalid_api_key", "Invalid API key"));
    }
    if (route === "other" || route === "media" || req.method !== "POST") {
      return json(res, 404, { detail: "Not Found" });
    }
    const fault = takeFault(route);
    if (await applyFault(res, fault)) return;
    const cut = fault?.kind === "truncated";
    const format = query.output_format ?? "mp3_44100_128";
    const fields = Array.isArray(body) ? (body as FakePart[]) : [];
    const fileParts = (name: string) => fields.filter((p) => p.field === name && "filename" in p);
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;

    if (route === "tts" || route === "sfx") {
      if (typeof b.text !== "string" || b.text.trim() === "") {
        return json(res, 422, { detail: [{ loc: ["body", "text"], msg: "field required" }] });
      }
      const voice = decodeURIComponent(tts?.[1] ?? "");
      if (route === "tts" && !known.has(voice)) {
        const message = `A voice with the voice_id ${voice} was not found.`;
        return json(res, 400, detail("voice_not_found", message));
      }
      const seconds = b.duration_seconds;
      if (route === "sfx" && typeof seconds === "number" && (seconds < 0.5 || seconds > 30)) {
        return json(res, 422, detail("invalid_duration", "Duration must be 0.5 to 30 seconds."));
      }
      counters.served[route]++;
      const [bytes, type] = audio(format, b.text);
      return send(res, 200, type, bytes, cut);
    }
    if (route === "isolation") {
      if (fileParts("audio").length !== 1) {
        return json(res, 422, { detail: [{ loc: ["body", "audio"], msg: "field required" }] });
      }
      counters.served.isolation++;
      return send(res, 200, "audio/wav", wav(16_000, "isolated"), cut);
    }
    // voices/add
    const name = fields.find((p) => p.field === "name" && "value" in p);
    if (!name || fileParts("files").length === 0) {
      return json(res, 422, { detail: [{ loc: ["body", "files"], msg: "field required" }] });
    }
    const id = randomUUID().replace(/-/g, "").slice(0, 20);
    known.add(id);
    voices.push(id);
    counters.served.voices++;
    if (fault?.kind === "malformed") {
      return send(res, 200, "application/json", Buffer.from(`{"voice_id":"${id}",`));
    }
    return json(res, 200, { voice_id: id, requires_verification: false }, cut);
  }

  const http = await listen(handle);
  base = http.origin;

  return {
    url: base,
    key,
    counters,
    requests,
    voices,
    fault: faults.add,
    mediaUrl: (name = "sample.wav") => `${base}/media/${name}`,
    close: http.close,
  };
}
