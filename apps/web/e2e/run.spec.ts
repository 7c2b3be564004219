import { expect, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

test.describe("running generations (offline local provider)", () => {
  test("text → image generator → Run: the image appears in the node", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run");
    const text = await canvas.add("Text");
    await canvas.drag(text, -350, -120);
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.drag(image, 80, -150);
    await canvas.node(text).getByRole("textbox", { name: "Text" }).fill("a red fox in the snow");
    await canvas.connect(text, "text", image, "prompt");
    await expect(canvas.edges()).toHaveCount(1);

    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    // Live status while it runs, then the result.
    await expect(canvas.node(image).getByRole("button", { name: "Cancel" })).toBeVisible();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    const output = canvas.node(image).locator(".node-output img").first();
    await expect(output).toHaveAttribute("src", /\/api\/media\/file\/.+\.png$/);
    // The image decodes a moment after its node says Done.
    await expect
      .poll(() => output.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await canvas.shot("run-image");
  });

  test("Run all runs in dependency order, skips unchanged nodes, reruns after an edit", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-all");
    const text = await canvas.add("Text");
    await canvas.drag(text, -420, -150);
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.drag(image, -60, -200);
    const video = await canvas.add("Runway Gen-4");
    await canvas.drag(video, 300, -120);
    const prompt = canvas.node(text).getByRole("textbox", { name: "Text" });
    await prompt.fill("a lighthouse");
    await canvas.connect(text, "text", image, "prompt");
    await canvas.connect(image, "image", video, "image");
    await expect(canvas.edges()).toHaveCount(2);
    const done = (id: string) =>
      expect(canvas.node(id).locator(".status-pill")).toHaveText("Done", { timeout: 30_000 });

    await page.getByRole("button", { name: "Run all" }).click();
    await done(image);
    await done(video);
    await expect(canvas.node(video).locator("video")).toHaveAttribute("src", /\.webm$/);
    const firstImage = await canvas
      .node(image)
      .locator(".node-output img")
      .first()
      .getAttribute("src");

    // Nothing changed: both keep their results and say so. Runs go to the server (ADR 0010).
    // Each started run's id, read as its answer passes (a late body read can find it gone).
    const started: string[] = [];
    await page.route("**/api/runs", async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      const response = await route.fetch();
      started.push(((await response.json()) as { run: { id: string } }).run.id);
      await route.fulfill({ response });
    });
    const runAll = async () => {
      const before = started.length;
      await page.getByRole("button", { name: "Run all" }).click();
      await expect.poll(() => started.length).toBe(before + 1);
      return started[before] as string;
    };
    const stepsOf = async (runId: string) => {
      const answer = await page.request.get(`/api/runs/${runId}`);
      const { run } = (await answer.json()) as {
        run: { nodes: { id: string; status: string }[] };
      };
      return Object.fromEntries(run.nodes.map((node) => [node.id, node.status]));
    };
    const unchanged = await runAll();
    for (const id of [image, video])
      await expect(
        canvas.node(id).getByText("Unchanged since its last run: kept its result"),
      ).toBeVisible();
    expect(await stepsOf(unchanged)).toEqual({ [image]: "skipped", [video]: "skipped" });

    // A new prompt: both run again.
    await prompt.fill("a lighthouse in a storm");
    const edited = await runAll();
    await expect
      .poll(() => canvas.node(image).locator(".node-output img").first().getAttribute("src"), {
        timeout: 30_000,
      })
      .not.toBe(firstImage);
    await done(video);
    await expect
      .poll(() => stepsOf(edited))
      .toEqual({ [image]: "completed", [video]: "completed" });
    await expect(canvas.node(video).getByText("Unchanged since its last run")).toHaveCount(0);
    // The node keeps its earlier result: stepping back shows it again.
    const results = canvas.node(image).getByRole("navigation", { name: "Results" });
    await expect(results).toContainText("Result 2 of 2");
    await results.getByRole("button", { name: "Previous result" }).click();
    await expect(results).toContainText("Result 1 of 2");
    await expect(canvas.node(image).locator(".node-output img").first()).toHaveAttribute(
      "src",
      firstImage as string,
    );
    await canvas.shot("run-all");
  });

  test("signed out, a run works too (an anonymous session; storage stays in this browser)", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a paper boat");
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    await expect(canvas.node(image).locator(".node-output img").first()).toHaveAttribute(
      "src",
      /\/api\/media\/file\/.+\.png$/,
    );
    // Still signed out as far as the app goes: the account button offers sign-in.
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("reload during a run: the result still lands in the node", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-reload");
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a windmill");
    await page.keyboard.press("Control+s");
    await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible();
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByRole("complementary", { name: "Queue" })).toBeVisible();
    await page.reload();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    await expect(canvas.node(image).locator(".node-output img").first()).toHaveAttribute(
      "src",
      /\/api\/media\/file\/.+\.png$/,
    );
  });

  test("signed out, reload during a run: the run is picked up and its result lands", async ({
    page,
  }) => {
    const canvas = new CanvasPage(page);
    const jobLists: number[] = [];
    page.on("response", (response) => {
      if (response.url().includes("/api/queue/jobs")) jobLists.push(response.status());
    });
    await canvas.open();
    // A fresh signed-out load has no job to look for: no request, so no 401 either.
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    const image = await canvas.add("FLUX1.1 [pro]");
    expect(jobLists).toEqual([]);
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a kite");
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(image).getByRole("button", { name: "Cancel" })).toBeVisible();
    await page.reload();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    await expect(canvas.node(image).locator(".node-output img").first()).toHaveAttribute(
      "src",
      /\/api\/media\/file\/.+\.png$/,
    );
    expect(jobLists.filter((status) => status !== 200)).toEqual([]);
  });

  test("while a job waits in the queue, its node says Queued, not Running", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-queued");
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a queue");
    // Every change of the node is checked as it happens: the pill and the run controls agree.
    await canvas.node(image).evaluate((element) => {
      const seen = { queued: 0, mismatched: [] as string[] };
      (window as unknown as { pillCheck: typeof seen }).pillCheck = seen;
      const check = () => {
        const state = element.querySelector(".run-state")?.textContent ?? "";
        const pill = element.querySelector(".status-pill")?.textContent ?? "";
        if (state.startsWith("Queued")) {
          seen.queued++;
          if (!pill.startsWith("Queued")) seen.mismatched.push(`${state} / ${pill}`);
        }
      };
      new MutationObserver(check).observe(element, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Done", {
      timeout: 30_000,
    });
    const seen = await page.evaluate(
      () =>
        (window as unknown as { pillCheck: { queued: number; mismatched: string[] } }).pillCheck,
    );
    expect(seen.queued).toBeGreaterThan(0);
    expect(seen.mismatched).toEqual([]);
  });

  test("a missing required input is shown on the node and nothing is sent", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-missing");
    const crop = await canvas.add("Crop");
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/generate/")) sent.push(request.url());
    });
    await canvas.node(crop).getByRole("button", { name: "Run", exact: true }).click();
    await expect(canvas.node(crop).getByRole("alert")).toHaveText("Missing required input: Image");
    expect(sent).toEqual([]);
  });

  test("cancel a queued job", async ({ page }) => {
    const canvas = new CanvasPage(page);
    await canvas.open();
    await canvas.signUp("run-cancel");
    const image = await canvas.add("FLUX1.1 [pro]");
    await canvas.node(image).getByRole("textbox", { name: "Prompt" }).fill("a slow one");
    await canvas.node(image).getByRole("button", { name: "Run", exact: true }).click();
    await canvas.node(image).getByRole("button", { name: "Cancel" }).click();
    await expect(
      canvas.node(image).getByRole("button", { name: "Run", exact: true }),
    ).toBeVisible();
    await expect(canvas.node(image).locator(".status-pill")).toHaveText("Idle");
    await expect(canvas.node(image).locator(".node-output img")).toHaveCount(0);
  });
});
