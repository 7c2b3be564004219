export * from "./constants.ts";
export * from "./migrations.ts";
export * from "./workflow.ts";
