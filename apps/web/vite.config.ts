import react from "@vitejs/plugin-react";
import { VitePWA } from "vite-plugin-pwa";
import { defineConfig } from "vitest/config";
import { precompress } from "./precompress.ts";

export default defineConfig({
  plugins: [
    react(),
    // The service worker (Workbox) that lets the editor open with no network: it precaches
    // the shell and every chunk of the build, and a new build waits for the user's "Reload to
    // update" (src/services/service-worker.ts) instead of replacing code under an open editor.
    VitePWA({
      registerType: "prompt",
      injectRegister: false,
      includeAssets: ["icon.svg"],
      manifest: {
        name: "Atelier",
        short_name: "Atelier",
        description: "A canvas for AI media-generation workflows",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#111114",
        theme_color: "#111114",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "/icon.svg", sizes: "any", type: "image/svg+xml" },
        ],
      },
      workbox: {
        globPatterns: ["**/*.{js,css,html,svg,png}"],
        // Client-side routes open from the cached shell; the API and its auth redirects
        // always reach the server.
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//],
        // The 3D viewer's three.js chunk is the largest (~0.75 MB).
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        // The first visit's page is controlled at once, so it works offline without a reload.
        clientsClaim: true,
      },
    }),
    precompress(),
    // React Flow names its components for DevTools with `X.displayName = "…"`, a statement
    // the bundler must keep, and with it every component React Flow ships that the canvas
    // never uses (~0.5 KB of the first load, gzipped). Lines are blanked, not removed, so the
    // source map stays true.
    {
      name: "xyflow-without-display-names",
      apply: "build",
      transform: {
        filter: { id: /@xyflow[\\/]react[\\/]dist[\\/]esm[\\/]index\.js$/ },
        handler: (code) => ({
          code: code.replace(/^\w+\.displayName = '[^']*';$/gm, ""),
          map: null,
        }),
      },
    },
  ],
  resolve: {
    alias: [
      // React Flow's zustand 4 imports the selector hook's shim for React 17, which bundles
      // a second useSyncExternalStore; React 19 has its own, and the package's plain entry
      // uses it (0.22 KB less of the first load, gzipped).
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: "use-sync-external-store/with-selector.js",
      },
    ],
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    modulePreload: { polyfill: false },
    // `memo(Component)` and `forwardRef(…)` at a module's top level have no side effects;
    // with the plugin above, React Flow's unused components leave the first load.
    rolldownOptions: { treeshake: { manualPureFunctions: ["memo", "forwardRef"] } },
  },
  server: { proxy: { "/api": "http://localhost:3000" } },
  test: {
    name: "web",
    include: ["test/**/*.test.{ts,tsx}"],
    environment: "happy-dom",
    testTimeout: 30_000,
  },
});
