export * from "./migrations.ts";
export * from "./workflow.ts";
