export * from "./geometry.ts";
export * from "./levels.ts";
