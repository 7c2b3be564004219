import { fileTypeFromBuffer } from "file-type";
import type { Config } from "../env.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { createComfyUIProvider } from "./comfyui/comfyui-provider.ts";
import { createElevenLabsProvider } from "./elevenlabs/elevenlabs-provider.ts";
import { createFalProvider } from "./fal/fal-provider.ts";
import { createGoogleProvider } from "./google/google-provider.ts";
import { locateFfmpeg } from "./local/ffmpeg/locate.ts";
import { FFMPEG_NODE_TYPES } from "./local/ffmpeg/merge.ts";
import { createLocalProvider } from "./local/local-provider.ts";
import { createLumaProvider } from "./luma/luma-provider.ts";
import { createOpenAIProvider } from "./openai/openai-provider.ts";
import { MAX_POLL_MS, type PollCadence } from "./poll-cadence.ts";
import type { GenerationProvider } from "./provider.ts";
import { createReplicateProvider } from "./replicate/replicate-provider.ts";
import { createRunwayProvider, RUNWAY_MIN_POLL_MS } from "./runway/runway-provider.ts";
import type { SafeFetcher } from "./safe-fetch.ts";

export interface ProviderRegistry {
  get(id: string): GenerationProvider | null;
  /** Providers with a key configured (`local` always). */
  configured: ReadonlySet<string>;
  /** The operator's preference where several configured providers can run a node. */
  order: readonly string[];
  /** Node types this server does for real itself, whatever keys are set (merges with ffmpeg). */
  doneLocally: ReadonlySet<string>;
  /** The ffmpeg binary the local provider runs, or null. */
  ffmpeg: string | null;
  /** Jobs one provider may have in flight at once; more wait in the queue. */
  concurrency(id: string): number;
  /** How often to read one job's status (see jobs/cadence.ts). */
  cadence(id: string): PollCadence;
  /** Closes what the providers keep open. */
  close(): void;
}

const CONCURRENCY: Record<string, number> = {
  local: 4,
  fal: 10,
  runway: 5,
  luma: 5,
  google: 5,
  openai: 5,
  elevenlabs: 3,
  // Replicate queues on its own (its create limit is per minute, far above this).
  replicate: 10,
  // ComfyUI queues on its own: more in flight only waits there, with a queue position.
  comfyui: 8,
};
/**
 * The shortest wait between two status reads: SPEC §4's 3 s; Runway asks for no more than
 * one poll per task every 5 s. Waits then grow with the job's age (jobs/cadence.ts).
 */
const MIN_POLL_MS: Record<string, number> = {
  fal: 3000,
  runway: RUNWAY_MIN_POLL_MS,
  luma: 3000,
  google: 3000,
  openai: 5000,
  elevenlabs: 3000,
  replicate: 3000,
  // Progress comes over the WebSocket into memory: reading it is free.
  comfyui: 1000,
};
/** APIs whose submit may already hold the answer (synchronous models): read it at once. */
const ANSWERS_AT_SUBMIT = new Set(["google", "openai", "elevenlabs"]);

/**
 * Builds the providers the configuration allows. Keys stay here, on the server; a node whose
 * provider has no key runs on the offline `local` provider.
 */
export function createProviders(
  config: Config,
  deps: { store: BlobStore; fetcher: SafeFetcher },
): ProviderRegistry {
  const generation = config.generation;
  const storagePrefix = `${config.publicUrl}/api/media/file/`;
  // Our own files are read from storage, never fetched back over the network.
  const readMedia = async (url: string) => {
    const path = url.startsWith(storagePrefix)
      ? url.slice(storagePrefix.length)
      : url.startsWith("/api/media/file/")
        ? url.slice("/api/media/file/".length)
        : null;
    if (path === null) return (await deps.fetcher.fetchBytes(url)).bytes;
    const blob = await deps.store.get(decodeURIComponent(path));
    if (!blob) throw new Error("The input file is no longer in storage");
    const parts: Buffer[] = [];
    for await (const part of blob.body) parts.push(part as Buffer);
    return new Uint8Array(Buffer.concat(parts));
  };
  const providers = new Map<string, GenerationProvider>();
  const ffmpeg = locateFfmpeg(generation.ffmpegPath);
  providers.set(
    "local",
    createLocalProvider({ readMedia, stepMs: generation.localStepMs, ffmpeg }),
  );
  if (generation.fal)
    providers.set(
      "fal",
      createFalProvider({
        key: generation.fal.key,
        ...(generation.fal.baseUrl ? { queueBaseUrl: generation.fal.baseUrl } : {}),
        ...(generation.fal.restUrl ? { restBaseUrl: generation.fal.restUrl } : {}),
        allowMediaHosts: generation.outboundAllowHosts,
      }),
    );
  const allowMediaHosts = generation.outboundAllowHosts;
  // Inputs the provider is sent as bytes: our storage read directly, typed by their content.
  const fetchInput = async (url: string) => {
    const bytes = await readMedia(url);
    return { bytes, contentType: (await fileTypeFromBuffer(bytes))?.mime ?? null };
  };
  if (generation.runway)
    providers.set("runway", createRunwayProvider({ ...generation.runway, allowMediaHosts }));
  if (generation.luma)
    providers.set("luma", createLumaProvider({ ...generation.luma, allowMediaHosts }));
  if (generation.google)
    providers.set(
      "google",
      createGoogleProvider({
        ...generation.google,
        allowMediaHosts,
        fetchInput,
      }),
    );
  if (generation.elevenlabs)
    providers.set(
      "elevenlabs",
      createElevenLabsProvider({ ...generation.elevenlabs, allowMediaHosts, fetchInput }),
    );
  if (generation.openai)
    providers.set(
      "openai",
      createOpenAIProvider({ ...generation.openai, allowMediaHosts, fetchInput }),
    );
  if (generation.replicate) {
    const { key, baseUrl } = generation.replicate;
    providers.set(
      "replicate",
      createReplicateProvider({ key, ...(baseUrl ? { baseUrl } : {}), allowMediaHosts }),
    );
  }
  if (generation.comfyui)
    providers.set("comfyui", createComfyUIProvider({ ...generation.comfyui, readMedia }));
  return {
    get: (id) => providers.get(id) ?? null,
    configured: new Set(providers.keys()),
    order: generation.providerOrder,
    doneLocally: ffmpeg ? FFMPEG_NODE_TYPES : new Set(),
    ffmpeg,
    close: () => {
      for (const provider of providers.values()) provider.close?.();
    },
    concurrency: (id) => CONCURRENCY[id] ?? 5,
    cadence: (id) => {
      // The offline provider is clock-derived and costs nothing to ask: its fast fixed pace.
      if (id === "local") {
        const stepMs = Math.max(10, Math.floor(generation.localStepMs / 2));
        return { firstMs: 0, minMs: stepMs, maxMs: stepMs, webhookSafetyMs: stepMs };
      }
      const fixed = generation.pollMs;
      const minMs = fixed ?? MIN_POLL_MS[id] ?? 3000;
      return {
        firstMs: ANSWERS_AT_SUBMIT.has(id) ? 0 : minMs,
        minMs,
        maxMs: fixed ?? Math.max(MAX_POLL_MS, minMs),
        webhookSafetyMs: fixed ?? generation.webhookSafetyMs,
      };
    },
  };
}
