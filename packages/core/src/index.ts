/**
 * @atelier/core — the rules of SPEC.md as pure TypeScript + zod, shared by web and server.
 */
export * from "./api/index.ts";
export * from "./catalogue/index.ts";
export * from "./graph/index.ts";
export * from "./limits.ts";
export * from "./ports/index.ts";
export * from "./processing/index.ts";
export * from "./provenance/index.ts";
export * from "./schema/index.ts";
export * from "./serialization/index.ts";
export * from "./validation/index.ts";
