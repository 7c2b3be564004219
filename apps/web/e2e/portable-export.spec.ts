import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { CanvasPage } from "./canvas-page.ts";
import { dropOnPane, transferOf } from "./drop.ts";

/*
 * Issue 22 point 5: a workflow exported as a .zip with its media opens on ANOTHER server,
 * with a fresh data dir, with every media file uploaded there.
 */

const SERVER_ENTRY = fileURLToPath(
  new URL("../../server/src/entrypoints/all-in-one.ts", import.meta.url),
);
// Away from the 44xx e2e ports and the 4500–4599 bench ports other runs use.
const secondPort = Number(
  process.env.E2E_SECOND_PORT ?? Number(process.env.E2E_PORT ?? 4173) + 2000,
);
const second = `http://127.0.0.1:${secondPort}`;
let server: ChildProcess | null = null;
let dataDir = "";

/** A second Atelier, as the config starts the first: its own port, data dir and PGlite. */
async function startSecondServer(): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), "atelier-e2e-second-"));
  server = spawn(process.execPath, ["--import", "tsx", SERVER_ENTRY], {
    cwd: fileURLToPath(new URL(".", import.meta.url)),
    env: {
      ...process.env,
      PORT: String(secondPort),
      HOST: "127.0.0.1",
      PUBLIC_URL: second,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      RATE_LIMIT_SIGN_IN_PER_MINUTE: "1000",
      ...(process.env.E2E_WEB_ROOT ? { WEB_ROOT: process.env.E2E_WEB_ROOT } : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${second}/api/health`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);
}

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a .zip export opens on a second server with every media file uploaded there", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const starting = startSecondServer();
  const first = baseURL as string;

  // On the first server: an uploaded image and a generated one.
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("portable");
  await dropOnPane(page, await transferOf(page, "sketch.png"));
  await expect(canvas.nodes()).toHaveCount(1);
  const [upload] = await canvas.nodeIds();
  if (!upload) throw new Error("no node for the dropped file");
  await expect(canvas.node(upload).locator(".node-output img").first()).toHaveAttribute(
    "src",
    /\/api\/media\/file\/.+\.png$/,
    { timeout: 20_000 },
  );
  const generator = await canvas.add("FLUX1.1 [pro]");
  await canvas.drag(generator, 380, 0);
  await canvas.node(generator).getByRole("textbox", { name: "Prompt" }).fill("a paper boat");
  await canvas.node(generator).getByRole("button", { name: "Run", exact: true }).click();
  await expect(canvas.node(generator).locator(".status-pill")).toHaveText("Done", {
    timeout: 30_000,
  });
  await expect(canvas.node(generator).locator(".node-output img").first()).toHaveAttribute(
    "src",
    new RegExp(`^${first}/api/media/file/.+\\.png$`),
  );
  await page.getByRole("textbox", { name: "Workflow name" }).fill("Boat and sketch");
  await canvas.shot("portable-export");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export .zip" }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe("Boat-and-sketch.zip");
  const zipPath = test.info().outputPath(saved.suggestedFilename());
  await saved.saveAs(zipPath);
  const entries = unzipSync(new Uint8Array(readFileSync(zipPath)));
  const names = Object.keys(entries);
  expect(names).toContain("workflow.json");
  expect(names).toContain("atelier-export.json");
  expect(names.filter((name) => name.startsWith("media/"))).toHaveLength(2);
  const bundled = new TextDecoder().decode(entries["workflow.json"]);
  // No link to the first server is left in the export.
  expect(bundled).not.toContain("/api/media/file/");
  expect(bundled).not.toContain(first);

  // On the second server, signed out, in a fresh browser: import the .zip.
  await starting;
  const context = await browser.newContext({ baseURL: second });
  const other = await context.newPage();
  const toFirst: string[] = [];
  other.on("request", (request) => {
    if (request.url().startsWith(first)) toFirst.push(request.url());
  });
  // Hold the first upload until its progress has been seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const uploads: number[] = [];
  await other.route("**/api/media", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    if (uploads.length === 0) await held;
    const response = await route.fetch();
    uploads.push(response.status());
    await route.fulfill({ response });
  });
  const imported = new CanvasPage(other);
  await imported.open();
  await other.getByLabel("Import a workflow file").setInputFiles(zipPath);
  const progress = other.getByRole("status").filter({ hasText: "Uploading media 1 of 2…" });
  await expect(progress).toBeVisible();
  release();
  await expect(progress).toBeHidden();
  await expect(imported.nodes()).toHaveCount(2);
  expect(uploads).toEqual([201, 201]);
  await expect(other.getByRole("textbox", { name: "Workflow name" })).toHaveValue(
    "Boat and sketch",
  );

  // Every media node shows its file, loaded from the second server.
  for (const id of [upload, generator]) {
    const image = imported.node(id).locator(".node-output img").first();
    await expect(image).toHaveAttribute("src", new RegExp(`^${second}/api/media/file/.+\\.png$`));
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  }
  expect(toFirst).toEqual([]);
  await imported.shot("portable-import");

  // A file that is not a zip is refused with its reason; the canvas keeps the workflow.
  await other.getByLabel("Import a workflow file").setInputFiles({
    name: "broken.zip",
    mimeType: "application/zip",
    buffer: Buffer.from("not a zip at all"),
  });
  // The imported workflow is not saved yet: importing another asks first.
  await other
    .getByRole("dialog", { name: "Unsaved changes" })
    .getByRole("button", { name: "Discard changes" })
    .click();
  await expect(
    imported.toast("This file is not a valid .zip archive. Nothing was imported."),
  ).toBeVisible();
  await expect(imported.nodes()).toHaveCount(2);
  await context.close();
});
