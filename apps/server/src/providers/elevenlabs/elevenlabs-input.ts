import type { NodeRun } from "../provider.ts";
import { fatalError as fatal, inputFetchError, plainMessage } from "../transport.ts";

/*
 * The ElevenLabs wire format (reference/catalogue: elevenlabs-v3, elevenlabs-sfx, voice-clone,
 * audio-isolation): node runs → request bodies, answers → errors and audio, input downloads.
 * Bodies hold ElevenLabs' JSON fields plus ours, which `submit` removes: `voice_id` (TTS path),
 * `output_format` (query), `preview_text` (what a cloned voice's preview says). `buildInput`
 * cannot download, so multipart `files` / `audio` hold our input URLs for `submit` to fetch.
 */

/** Messages shown to users (never secrets, URLs or provider internals). */
export const ELEVENLABS_USER_MESSAGES = {
  failed: "Generation failed",
  keyRejected: "The ElevenLabs API key was rejected",
  quota: "Your ElevenLabs quota is used up",
  unknownEndpoint: "This node cannot run on ElevenLabs",
  unknownVoice: "The voice must be an ElevenLabs voice id or a premade voice name",
  missingText: "There is no text to use: connect or type some",
  missingInput: "A required input is not connected",
  input: "An input file could not be read",
  tooLarge: "The file is larger than allowed",
  lost: "The provider no longer knows this request",
  resultLost: "The result was lost when the server restarted; run the node again",
  outcomeUnknown:
    "The provider did not confirm the request; it was not sent again to avoid a second charge",
  voiceUnknown:
    "ElevenLabs did not confirm the new voice; it was not sent again to avoid a duplicate voice",
} as const;
const M = ELEVENLABS_USER_MESSAGES;

/** Downloads one input file (default: the SSRF-safe fetcher, never with the key). */
export type FetchInput = (
  url: string,
) => Promise<{ bytes: Uint8Array; contentType: string | null }>;

/** Endpoint ids of the catalogue's `elevenlabs` variants. */
export const ELEVENLABS_ENDPOINTS = {
  tts: "v1/text-to-speech",
  sfx: "v1/sound-generation",
  voiceAdd: "v1/voices/add",
  isolation: "v1/audio-isolation",
} as const;
const E = ELEVENLABS_ENDPOINTS;

/** The TTS model of `elevenlabs-v3` and of voice-clone previews. */
export const TTS_MODEL = "eleven_v3";
/** The only sound-effects model (reference: `model_id` allows just this one). */
export const SFX_MODEL = "eleven_text_to_sound_v2";
/** ElevenLabs' default output format, used wherever a node has no format parameter. */
export const DEFAULT_FORMAT = "mp3_44100_128";
/** Rachel: the catalogue's (and fal's) default voice. */
export const DEFAULT_VOICE_ID = "21m00Tcm4TlvDq8ikWAM";

/** Premade voices by lower-case name, so fal-style names ("Rachel") work on the direct API. */
export const PREMADE_VOICES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "rachel:21m00Tcm4TlvDq8ikWAM adam:pNInz6obpgDQGcFmaJgB antoni:ErXwobaYiN019PkySvjV",
    "arnold:VR6AewLTigWG4xSOukaG bella:EXAVITQu4vr4xnSDxMaL sarah:EXAVITQu4vr4xnSDxMaL",
    "charlie:IKne3meq5aSn9XLyUdCD domi:AZnzlk1XvdvUeBnXmlld elli:MF3mGyEYCl7XYWbV9V6O",
    "george:JBFqnCBsd6RMkjVDRZzb josh:TxGEqnHWrfWFTfGW9XjX laura:FGY2WhTYpPnrIDTdsKH5",
    "liam:TX3LPaxmHKxFdv7VOQHJ roger:CwhRBWXzGAHq8TQ4Fs17",
  ].flatMap((row) => row.split(" ").map((entry) => entry.split(":"))),
);
/** A voice id as ElevenLabs makes them; an `output_format` value. */
export const VOICE_ID = /^[A-Za-z0-9]{1,64}$/;
export const FORMAT = /^[a-z0-9]+(?:_[0-9]+){1,2}$/;

export const rec = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter((v) => v.trim() !== "");
export const str = (v: unknown) =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

/** The connected text (joined) when not blank, else the typed parameter, else undefined. */
function textOf(connected: string | string[] | undefined, typed: unknown): string | undefined {
  const joined = list(connected).join("\n\n");
  return joined.trim() !== "" ? joined : str(typed);
}

/** A premade voice name or a voice id → the id; blank → Rachel. */
export function voiceIdOf(voice: unknown): string {
  const v = str(voice) ?? DEFAULT_VOICE_ID;
  const id = PREMADE_VOICES[v.toLowerCase()] ?? v;
  if (!VOICE_ID.test(id)) throw fatal("elevenlabs: invalid voice", M.unknownVoice);
  return id;
}

/**
 * The request body for a node run on one of the `elevenlabs` endpoints (see the module
 * comment). Throws a fatal `ProviderError` for other endpoints, a missing text or sample, or
 * a voice that is neither an id nor a premade name.
 */
export function buildElevenLabsInput(run: NodeRun): Record<string, unknown> {
  const { inputs, params } = run;
  const what = `elevenlabs ${run.nodeType}`;
  const needText = (value: string | undefined) => {
    if (value === undefined) throw fatal(`${what}: no text`, M.missingText);
    return value;
  };
  switch (run.endpoint) {
    case E.tts: {
      const text = needText(textOf(inputs.text, params.text));
      const format = str(params.outputFormat);
      const raw = typeof params.stability === "string" ? str(params.stability) : params.stability;
      const stability = raw === undefined || raw === null ? Number.NaN : Number(raw);
      const language = str(params.languageCode);
      const seed = params.seed;
      return {
        voice_id: voiceIdOf(params.voice),
        output_format: format && FORMAT.test(format) ? format : DEFAULT_FORMAT,
        text,
        model_id: TTS_MODEL,
        ...(Number.isFinite(stability)
          ? { voice_settings: { stability: Math.min(1, Math.max(0, stability)) } }
          : {}),
        ...(language ? { language_code: language } : {}),
        ...(typeof seed === "number" && Number.isInteger(seed) && seed >= 0 ? { seed } : {}),
      };
    }
    case E.sfx: {
      const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
      const duration = num(params.durationSeconds);
      const influence = num(params.promptInfluence);
      return {
        output_format: DEFAULT_FORMAT,
        text: needText(textOf(inputs.prompt, params.prompt)),
        model_id: SFX_MODEL,
        ...(duration === undefined ? {} : { duration_seconds: duration }),
        ...(influence === undefined ? {} : { prompt_influence: influence }),
        ...(params.loop === true ? { loop: true } : {}),
      };
    }
    case E.voiceAdd: {
      const files = list(inputs.media);
      if (files.length === 0) throw fatal(`${what}: no voice sample`, M.missingInput);
      return {
        name: str(params.name) ?? "My voice",
        files,
        remove_background_noise: params.removeBackgroundNoise !== false,
        preview_text: textOf(inputs.text, params.text) ?? "Hello! This is my cloned voice.",
      };
    }
    case E.isolation: {
      const [audio] = list(inputs.media);
      if (!audio) throw fatal(`${what}: no media`, M.missingInput);
      return { audio };
    }
    default:
      throw fatal(`elevenlabs: unknown endpoint ${run.endpoint}`, M.unknownEndpoint);
  }
}

/**
 * ElevenLabs' own words when they are a plain sentence: one line, at most 300 characters, no
 * URLs or markup, not the key. Otherwise undefined, and callers fall back to a generic text.
 */
export const plainText = (value: unknown, key: string) => plainMessage(value, key, PLAIN);
const PLAIN = { max: 300, reject: /:\/\/|[\r\n<>{}]|key=/i };

/** JSON.parse of an answer's bytes that answers `undefined` instead of throwing. */
export function jsonOf(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** `{ detail: { status, message } }` or FastAPI's `{ detail: [{ msg }] }`, read safely. */
export function readDetail(bytes: Uint8Array): { status?: string; message?: string } {
  const raw = rec(jsonOf(bytes)).detail;
  const detail = Array.isArray(raw) ? rec(raw[0]) : rec(raw);
  const message = detail.message ?? detail.msg ?? (typeof raw === "string" ? raw : undefined);
  return {
    ...(typeof detail.status === "string" ? { status: detail.status } : {}),
    ...(typeof message === "string" ? { message } : {}),
  };
}

const TYPES: Record<string, string> = Object.fromEntries(
  "mp3:audio/mpeg wav:audio/wav m4a:audio/mp4 ogg:audio/ogg opus:audio/ogg flac:audio/flac aac:audio/aac webm:audio/webm mp4:video/mp4 mov:video/quicktime"
    .split(" ")
    .map((entry) => entry.split(":")),
);
const MEDIA_TYPE = /^(?:audio|video)\/[\w.+-]+$/;

/** The type audio bytes announce by their own signature (WAV, MP3, Ogg, FLAC), if any. */
function signature(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 12)).toString("latin1");
  if (/^RIFF[\s\S]{4}WAVE/.test(head)) return "audio/wav";
  const frameSync = bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0;
  if (head.startsWith("ID3") || frameSync) return "audio/mpeg";
  return head.startsWith("OggS") ? "audio/ogg" : head.startsWith("fLaC") ? "audio/flac" : undefined;
}
const mediaType = (declared: string | null | undefined) => {
  const type = declared?.split(";")[0]?.trim().toLowerCase() ?? "";
  return MEDIA_TYPE.test(type) ? type : undefined;
};

/** Raw PCM16 mono little-endian samples (ElevenLabs `pcm_<rate>`) as a playable WAV file. */
export function pcmToWav(pcm: Uint8Array, rate: number): Uint8Array {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.write("WAVEfmt ", 8, "ascii");
  header.write("data", 36, "ascii");
  // [offset, value] pairs: RIFF size, fmt size, rate, byte rate, data size; then PCM format,
  // one channel, 2-byte frames, 16 bits per sample.
  const u32 = [4, 36 + pcm.length, 16, 16, 24, rate, 28, rate * 2, 40, pcm.length];
  const u16 = [20, 1, 22, 1, 32, 2, 34, 16];
  for (let i = 0; i < u32.length; i += 2) header.writeUInt32LE(u32[i + 1] ?? 0, u32[i] ?? 0);
  for (let i = 0; i < u16.length; i += 2) header.writeUInt16LE(u16[i + 1] ?? 0, u16[i] ?? 0);
  return new Uint8Array(Buffer.concat([header, pcm]));
}

/**
 * Audio as ElevenLabs sent it → a storable file: `pcm_<rate>` gets a WAV header; otherwise the
 * format, the bytes' signature, then the answer's Content-Type say what it is (MP3 if none).
 */
export function audioFile(bytes: Uint8Array, format: string | undefined, header: string | null) {
  const pcm = /^pcm_(\d+)$/.exec(format ?? "");
  if (pcm && signature(bytes) !== "audio/wav") {
    return { bytes: pcmToWav(bytes, Number(pcm[1])), contentType: "audio/wav" };
  }
  const known = format?.startsWith("mp3_") ? "audio/mpeg" : undefined;
  return { bytes, contentType: known ?? signature(bytes) ?? mediaType(header) ?? "audio/mpeg" };
}

/** The URL's own file name, when it has a plain one with an extension. */
function ownName(url: string): string | undefined {
  const last = URL.canParse(url) ? (new URL(url).pathname.split("/").pop() ?? "") : "";
  return /^[\w.-]{1,100}\.[a-z0-9]{2,5}$/i.test(last) ? last : undefined;
}

/**
 * Downloads the input files (`[field, url]`) and builds a multipart body: the string fields,
 * then the files. Each file is at most `maxBytes`. Nothing has been sent to ElevenLabs
 * when this fails: timeouts, network errors and 429/5xx are `retryable`, the rest `fatal`.
 */
export async function multipart(
  fields: Record<string, string>,
  files: [string, string][],
  fetchInput: FetchInput,
  maxBytes: number,
): Promise<FormData> {
  const wanted = files.filter(([, url]) => url.trim() !== "");
  if (wanted.length === 0) throw fatal("elevenlabs: no input file", M.missingInput);
  const loaded = await Promise.all(
    wanted.map(async ([field, url], index) => {
      let file: Awaited<ReturnType<FetchInput>>;
      try {
        file = await fetchInput(url);
      } catch (err) {
        throw inputFetchError("elevenlabs: input file", err, M);
      }
      if (file.bytes.length > maxBytes) throw fatal("elevenlabs: input too large", M.tooLarge);
      if (file.bytes.length === 0) throw fatal("elevenlabs: input empty", M.input);
      const own = ownName(url);
      const ext = own?.split(".").pop()?.toLowerCase() ?? "";
      const type =
        mediaType(file.contentType) ??
        TYPES[ext] ??
        signature(file.bytes) ??
        "application/octet-stream";
      const typeExt = Object.entries(TYPES).find(([, t]) => t === type)?.[0];
      const name = own ?? `input-${index + 1}${typeExt ? `.${typeExt}` : ""}`;
      return { field, blob: new Blob([new Uint8Array(file.bytes)], { type }), name };
    }),
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const { field, blob, name } of loaded) form.append(field, blob, name);
  return form;
}
