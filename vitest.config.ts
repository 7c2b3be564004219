import { defineConfig } from "vitest/config";

// One runner for every workspace. The server suite runs on PGlite always, and once more on
// PostgreSQL when TEST_DATABASE_URL is set.
export default defineConfig({
  test: {
    projects: [
      "packages/core",
      "apps/web",
      "apps/server/vitest.config.ts",
      ...(process.env.TEST_DATABASE_URL ? ["apps/server/vitest.pg.config.ts"] : []),
    ],
  },
});
