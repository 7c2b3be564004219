export { IMAGE_SIZES } from "./define.ts";
export * from "./media-outputs.ts";
export type { NodeParams, ParamCheck, ParamShape, ParamSpec } from "./params.ts";
export { problemOf, SEED_MAX } from "./params.ts";
export * from "./provider-runs.ts";
export * from "./registry.ts";
export * from "./run-target.ts";
export * from "./types.ts";
