import { defineProject } from "vitest/config";

export default defineProject({
  // Property tests share two cores with the server suite in CI: give them room.
  test: { name: "core", include: ["test/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
});
