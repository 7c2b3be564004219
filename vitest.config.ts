import { defineConfig } from "vitest/config";

// One runner for every workspace: each package brings its own vitest project file.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
  },
});
