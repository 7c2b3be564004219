import { randomInt } from "node:crypto";
import type { NodeRun } from "../provider.ts";
import { fatalError } from "../transport.ts";
import { COMFYUI_MESSAGES } from "./messages.ts";

/* What every node type's template choice uses: reading its parameters, refusing a setting. */

/** A template chosen for a run: its name, the values of its "{{name}}"s, its uploads. */
export interface Choice {
  template: string;
  values: Record<string, unknown>;
  uploads?: Record<string, string>;
}

export const num = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? value : fallback;
export const str = (value: unknown, fallback = "") =>
  typeof value === "string" ? value : fallback;
/** The node's seed, or a fresh one (ComfyUI has no "random" seed of its own). */
export const seedOf = (params: Record<string, unknown>) =>
  typeof params.seed === "number" ? params.seed : randomInt(0, 2 ** 31);

export const first = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;
export const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Fails the run: the template cannot honour `what` (refused rather than ignored). */
export function refuse(run: NodeRun, model: string, what: string): never {
  throw fatalError(
    `comfyui: ${run.nodeType} with ${what}`,
    COMFYUI_MESSAGES.unsupported(what, model),
  );
}
