export * from "./api-token.ts";
export * from "./connection.ts";
export * from "./folder.ts";
export * from "./media-input.ts";
export * from "./safe-url.ts";
export * from "./upload.ts";
export * from "./workflow.ts";
