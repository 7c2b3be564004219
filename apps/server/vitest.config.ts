import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    // Needs PostgreSQL: runs in the PostgreSQL project (vitest.pg.config.ts) only.
    exclude: ["test/scale-out.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
