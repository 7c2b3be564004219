import type { PortType } from "../ports/index.ts";
import type { NodeParams } from "./params.ts";

/** Palette families, in the order the sidebar shows them. */
export const NODE_CATEGORIES = [
  "text",
  "image",
  "video",
  "3d",
  "audio",
  "processing",
  "containers",
] as const;
export type NodeCategory = (typeof NODE_CATEGORIES)[number];

export interface InputPortDefinition {
  id: string;
  label: string;
  type: PortType;
  required: boolean;
  multiple: boolean;
  /** Most connections a multiple input accepts, when the model caps it. */
  max?: number;
}

export interface OutputPortDefinition {
  id: string;
  label: string;
  type: PortType;
}

export type ProviderId =
  | "fal"
  | "runway"
  | "luma"
  | "google"
  | "openai"
  | "elevenlabs"
  | "freepik"
  | "leonardo"
  | "meshy"
  | "tripo"
  | "comfyui"
  | "replicate";

/** How a node produces its outputs. */
export type RunDefinition =
  /** Holds or shows content; nothing to run (text, notes, viewers). */
  | { kind: "none" }
  /** Done by our own server or browser, no model needed. */
  | { kind: "local"; operation: string }
  /** A generation service: which one, at which endpoints, is in `PROVIDER_RUNS`. */
  | { kind: "provider" };

/**
 * Where a provider node runs. `endpoint` is the default endpoint id; `variants` name the
 * endpoints chosen by which inputs are connected or which model version is picked.
 */
export interface ProviderRun {
  provider: ProviderId;
  endpoint: string;
  variants?: Record<string, string>;
}

export interface NodeLifecycle {
  status: "retired" | "at-risk";
  message: string;
  /** Node type to offer instead. */
  successor?: string;
}

export interface NodeDefinition {
  type: string;
  displayName: string;
  category: NodeCategory;
  inputs: InputPortDefinition[];
  outputs: OutputPortDefinition[];
  /** Parameters with their defaults: `params.parse({})` yields a complete set. */
  params: NodeParams;
  run: RunDefinition;
  lifecycle?: NodeLifecycle;
}
