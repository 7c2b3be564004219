import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { precompress } from "./precompress.ts";

export default defineConfig({
  plugins: [react(), precompress()],
  build: { outDir: "dist", sourcemap: true, modulePreload: { polyfill: false } },
  server: { proxy: { "/api": "http://localhost:3000" } },
  test: {
    name: "web",
    include: ["test/**/*.test.{ts,tsx}"],
    environment: "happy-dom",
    testTimeout: 30_000,
  },
});
