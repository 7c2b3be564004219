import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { FAKE_COMFYUI_PORT, FAKE_COMFYUI_URL, GPU_PORT } from "./gpu.ts";
import { E2E_ADMIN_EMAIL, MAIL_HTTP_PORT, MAIL_SMTP_PORT } from "./mail.ts";
import { FAKE_FAL_PORT, PRICED_DAILY_BUDGET, PRICED_PORT } from "./priced.ts";

// Debian's Chromium, never a downloaded one (the machines cannot download browsers).
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}. Install it with "apt-get install -y chromium" (Debian) or set CHROMIUM_PATH to a Chromium binary.`,
  );
}

const port = Number(process.env.E2E_PORT ?? 4173);

const dataDir = mkdtempSync(join(tmpdir(), "atelier-e2e-"));
const pricedDataDir = mkdtempSync(join(tmpdir(), "atelier-e2e-priced-"));
const gpuDataDir = mkdtempSync(join(tmpdir(), "atelier-e2e-gpu-"));

// Every spec signs up from 127.0.0.1 within minutes: the per-address limits are the server
// suite's to test (abuse-limits-*.test.ts), not something a spec should trip.
const E2E_LIMITS = {
  RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
  RATE_LIMIT_GENERATIONS_PER_MINUTE: "1000",
  RATE_LIMIT_ANONYMOUS_GENERATIONS_PER_MINUTE: "1000",
  ANONYMOUS_GENERATIONS_PER_MINUTE: "1000",
  CONCURRENT_JOBS_PER_USER: "1000",
  CONCURRENT_JOBS_PER_ANONYMOUS: "1000",
  CONCURRENT_JOBS_PER_ANONYMOUS_ADDRESS: "1000",
};
// A build elsewhere than apps/web/dist (E2E_WEB_ROOT), so runs can go side by side.
const WEB_ROOT: Record<string, string> = process.env.E2E_WEB_ROOT
  ? { WEB_ROOT: process.env.E2E_WEB_ROOT }
  : {};
const SERVER = "node --import tsx ../../server/src/entrypoints/all-in-one.ts";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  // E2E_OUTPUT_DIR keeps side-by-side runs from clearing each other's traces.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "../test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  // The machines are shared and small: give each expectation room, not sleeps.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["../../../scripts/playwright-closing-line.ts"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
    // The production build registers a service worker that answers from its cache; only the
    // specs about it (offline.spec.ts) let it run, so the others see the network they route.
    serviceWorkers: "block",
  },
  webServer: [
    // A real SMTP server on loopback catches the account mail (e2e/mail.ts).
    {
      command: "node --import tsx ../../server/test/helpers/mail-catcher.ts",
      url: `http://127.0.0.1:${MAIL_HTTP_PORT}/messages`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MAIL_SMTP_PORT: String(MAIL_SMTP_PORT), MAIL_HTTP_PORT: String(MAIL_HTTP_PORT) },
    },
    {
      // The real server, serving the production build of the web app (npm run build first).
      command: SERVER,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        SMTP_URL: `smtp://127.0.0.1:${MAIL_SMTP_PORT}`,
        ADMIN_EMAILS: E2E_ADMIN_EMAIL,
        ...E2E_LIMITS,
        ...WEB_ROOT,
      },
    },
    // The costs spec's fal, and the server whose signed-in runs go to it (e2e/priced.ts).
    {
      command: "node --import tsx ../../server/test/fakes/fal-process.ts",
      url: `http://127.0.0.1:${FAKE_FAL_PORT}/.well-known/jwks.json`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_FAL_PORT: String(FAKE_FAL_PORT), FAKE_FAL_KEY: "e2e-fal-key" },
    },
    {
      command: SERVER,
      url: `http://127.0.0.1:${PRICED_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(PRICED_PORT),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${PRICED_PORT}`,
        DATA_DIR: pricedDataDir,
        LOG_LEVEL: "warn",
        FAL_KEY: "e2e-fal-key",
        FAL_QUEUE_URL: `http://127.0.0.1:${FAKE_FAL_PORT}`,
        FAL_WEBHOOK_JWKS_URL: `http://127.0.0.1:${FAKE_FAL_PORT}/.well-known/jwks.json`,
        OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${FAKE_FAL_PORT}`,
        PROVIDER_POLL_MS: "200",
        BUDGET_USER_DAILY_USD: String(PRICED_DAILY_BUDGET),
        ...E2E_LIMITS,
        ...WEB_ROOT,
      },
    },
    {
      command: "node --import tsx ../../server/test/fakes/comfyui-process.ts",
      url: `${FAKE_COMFYUI_URL}/object_info`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { FAKE_COMFYUI_PORT: String(FAKE_COMFYUI_PORT) },
    },
    {
      command: SERVER,
      url: `http://127.0.0.1:${GPU_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(GPU_PORT),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${GPU_PORT}`,
        DATA_DIR: gpuDataDir,
        LOG_LEVEL: "warn",
        COMFYUI_URL: FAKE_COMFYUI_URL,
        // fal too, so a node can choose between the two; ComfyUI is preferred.
        PROVIDER_ORDER: "comfyui",
        FAL_KEY: "e2e-fal-key",
        FAL_QUEUE_URL: `http://127.0.0.1:${FAKE_FAL_PORT}`,
        FAL_WEBHOOK_JWKS_URL: `http://127.0.0.1:${FAKE_FAL_PORT}/.well-known/jwks.json`,
        OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${FAKE_FAL_PORT}`,
        PROVIDER_POLL_MS: "200",
        ...E2E_LIMITS,
        ...WEB_ROOT,
      },
    },
  ],
});
