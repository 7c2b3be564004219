export * from "./chunking.ts";
export * from "./load.ts";
export * from "./media.ts";
export * from "./media-refs.ts";
export * from "./serialize.ts";
export * from "./size.ts";
export * from "./text.ts";
