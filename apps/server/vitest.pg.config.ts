import { defineProject } from "vitest/config";

// The same API suite, unchanged, against a real PostgreSQL (TEST_DATABASE_URL).
export default defineProject({
  test: {
    name: "server (PostgreSQL)",
    include: ["test/**/*.test.ts"],
    environment: "node",
    env: { ATELIER_TEST_DB: "postgres" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
