import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";
import { FAKE_COMFYUI_URL, GPU_URL } from "./gpu.ts";

// The GPU server: open-weight nodes run on a fake ComfyUI that holds each run, fal on the
// fake fal (e2e/gpu.ts).
test.use({ baseURL: GPU_URL });

test("an open-weight node names ComfyUI as its provider, shows its progress and gets its image", async ({
  page,
  request,
}) => {
  const canvas = new CanvasPage(page);
  await canvas.open();
  await canvas.signUp("gpu");
  const flux = await canvas.add("FLUX.1 SRPO");
  await canvas.node(flux).getByRole("textbox", { name: "Prompt" }).fill("a red fox in snow");
  const cost = canvas.node(flux).getByTestId("node-cost");
  await expect(canvas.node(flux).getByTestId("node-provider")).toHaveText("ComfyUI ·");
  await expect(cost).toHaveText("ComfyUI · Free");

  // fal can run it too: the node may choose; Auto follows the operator's order (ComfyUI first).
  const provider = canvas.node(flux).getByRole("combobox", { name: "Provider" });
  await expect(provider.locator("option")).toHaveText(["Auto", "fal", "ComfyUI"]);
  await expect(provider).toHaveValue("");
  await provider.selectOption("fal");
  await expect(cost).toHaveText(/^(Est\. \$\d+\.\d\d|<\$0\.01|Cost unknown)$/);
  await expect(cost).toHaveAttribute("title", /fal/);
  await provider.selectOption("");
  await expect(cost).toHaveText("ComfyUI · Free");

  await canvas.node(flux).getByRole("button", { name: "Run", exact: true }).click();
  // Held at its first sampler step: the nodes before it are done, so progress is under way.
  const state = canvas.node(flux).locator(".run-state");
  await expect(state).toHaveText(/^Running · \d+ %$/, { timeout: 20_000 });
  const progress = canvas.node(flux).getByRole("progressbar", { name: "Progress" });
  expect(Number(await progress.getAttribute("value"))).toBeGreaterThan(0);
  await canvas.shot("gpu-comfyui-progress");

  expect((await request.post(`${FAKE_COMFYUI_URL}/__fake/release`)).status()).toBe(204);
  await expect(canvas.node(flux).locator(".status-pill")).toHaveText("Done", { timeout: 20_000 });
  await expect(canvas.node(flux).locator("img").first()).toBeVisible();
  await canvas.shot("gpu-comfyui-done");

  // The Providers page: ComfyUI reachable, its instance, the nodes it runs here.
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Providers…" }).click();
  const dialog = page.getByRole("dialog", { name: "Providers" });
  const comfy = dialog.getByRole("region", { name: "ComfyUI" });
  await expect(comfy.getByRole("heading")).toHaveText("ComfyUI Reachable");
  await expect(comfy.getByRole("list", { name: "ComfyUI instances" })).toHaveText(
    `${FAKE_COMFYUI_URL} — reachable`,
  );
  await expect(comfy.getByRole("list", { name: "Nodes ComfyUI runs" })).toContainText(
    "FLUX.1 SRPO",
  );
  await expect(comfy.getByText("Runs 9 of 9 nodes here")).toBeVisible();
  await canvas.shot("gpu-providers");
});
