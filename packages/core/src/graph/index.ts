export * from "./arrange.ts";
export * from "./automation.ts";
export * from "./content.ts";
export * from "./duplicate.ts";
export * from "./group.ts";
export * from "./order.ts";
export * from "./types.ts";
