export { IMAGE_SIZES } from "./define.ts";
export * from "./registry.ts";
export * from "./run-target.ts";
export * from "./types.ts";
