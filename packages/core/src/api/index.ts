export * from "./common.ts";
export * from "./constants.ts";
export * from "./folders.ts";
export * from "./generate.ts";
export * from "./media.ts";
export * from "./queue.ts";
export * from "./tokens.ts";
export * from "./workflows.ts";
