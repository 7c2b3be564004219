import { APP_MESSAGES, type SavedWorkflow, serializeWorkflow } from "@atelier/core";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { CanvasPage } from "./canvas-page.ts";

/**
 * App mode (issue 22): an owner publishes a workflow as an app; a second account opens
 * `/a/{slug}`, uploads a photo, writes a prompt, runs it and gets the result with a
 * download. Later edits of the workflow change nothing until the owner republishes.
 */

/** photo (an uploaded image) + prompt (text) → edit (FLUX.1 Kontext), as the server test has it. */
function appWorkflow(photoUrl: string, prompt: string): SavedWorkflow {
  const node = (id: string, type: string, x: number, data: Record<string, unknown>) => ({
    id,
    type,
    position: { x, y: 0 },
    data: { label: id, ...data },
  });
  return serializeWorkflow(
    {
      nodes: [
        node("photo", "utility", 0, {
          outputs: { imageUrl: photoUrl },
          outputValues: { output: { value: photoUrl } },
        }),
        node("prompt", "text", 0, { inputValues: { text: { value: prompt } } }),
        node("edit", "flux-kontext", 400, { inputValues: { numImages: { value: 1 } } }),
      ],
      edges: [
        {
          id: "e1",
          source: "photo",
          sourceHandle: "output",
          target: "edit",
          targetHandle: "image",
        },
        {
          id: "e2",
          source: "prompt",
          sourceHandle: "text",
          target: "edit",
          targetHandle: "prompt",
        },
      ],
      metadata: { name: "Restyle" },
    },
    { now: Date.now() },
  );
}

const SETTINGS = {
  name: "Restyle a photo",
  description: "Upload a photo, say how to restyle it.",
  access: "public",
  fields: [
    { kind: "param", nodeId: "prompt", param: "text", label: "Style" },
    { kind: "media", nodeId: "photo", label: "Photo" },
  ],
  outputs: [{ nodeId: "edit", label: "Result" }],
};

/** A real PNG drawn by the browser. */
async function pngOf(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 96;
    canvas.height = 64;
    const context = canvas.getContext("2d") as CanvasRenderingContext2D;
    context.fillStyle = "#0ea5e9";
    context.fillRect(0, 0, 96, 64);
    context.fillStyle = "#f97316";
    context.fillRect(24, 16, 48, 32);
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((made) => (made ? resolve(made) : reject(new Error("no PNG"))), "image/png"),
    );
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return btoa(String.fromCharCode(...bytes));
  });
  return Buffer.from(base64, "base64");
}

/** JSON calls as the page's account (its cookie), from our own origin. */
function apiOf(request: APIRequestContext, origin: string) {
  const send = async <T>(method: string, path: string, data?: unknown): Promise<T> => {
    const answer = await request.fetch(path, {
      method,
      headers: { origin },
      ...(data === undefined ? {} : { data }),
    });
    expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
    return (await answer.json()) as T;
  };
  return send;
}

test("a second account runs the published app with its own photo and prompt; edits wait for a republish", async ({
  browser,
  baseURL,
}) => {
  const origin = baseURL as string;
  // The owner: signs up in the editor, saves the workflow and publishes it (API).
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const canvas = new CanvasPage(owner);
  await canvas.open();
  await canvas.signUp("app-owner");
  const api = apiOf(owner.request, origin);
  const png = await pngOf(owner);
  const uploaded = await owner.request.post("/api/media", {
    headers: { origin },
    multipart: {
      workflowId: "temporary",
      file: { name: "photo.png", mimeType: "image/png", buffer: png },
    },
  });
  expect(uploaded.status()).toBe(201);
  const photo = ((await uploaded.json()) as { url: string }).url;
  const { workflow } = await api<{ workflow: { id: string; updated_at: string } }>(
    "POST",
    "/api/workflows",
    { name: "Restyle", data: appWorkflow(photo, "make it a watercolour") },
  );
  const { app } = await api<{ app: { slug: string; version: number } }>(
    "PUT",
    `/api/workflows/${workflow.id}/app`,
    SETTINGS,
  );
  expect(app.version).toBe(1);

  // The visitor: another browser, signed out at first.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/a/${app.slug}`);
  await expect(visitor.getByRole("heading", { name: "Restyle a photo" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(visitor).toHaveTitle("Restyle a photo");
  await expect(visitor.getByText("Upload a photo, say how to restyle it.")).toBeVisible();
  // Neither the editor nor the canvas came with the page.
  await expect(visitor.locator(".react-flow")).toHaveCount(0);
  await expect(visitor.getByText("Sign in to run this app")).toBeVisible();
  await expect(visitor.getByRole("button", { name: "Run" })).toHaveCount(0);

  await visitor.getByRole("button", { name: "Sign in" }).click();
  await visitor
    .getByRole("dialog", { name: "Sign in" })
    .getByRole("button", { name: "Create an account" })
    .click();
  const signUp = visitor.getByRole("dialog", { name: "Create an account" });
  await signUp.getByLabel("Email").fill(`app-visitor-${Date.now()}@example.com`);
  await signUp.getByLabel("Password").fill("correct horse battery");
  await signUp.getByRole("button", { name: "Create account" }).click();
  await expect(visitor.getByText(/^Signed in as /)).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Your runs" })).toBeVisible();

  // Run without a photo: the form says what is missing, nothing is sent.
  const style = visitor.getByLabel("Style", { exact: true });
  await expect(style).toHaveValue("make it a watercolour");
  await visitor.getByRole("button", { name: "Run" }).click();
  await expect(visitor.getByText(APP_MESSAGES.mediaRequired("Photo"))).toBeVisible();

  await visitor
    .getByLabel("Photo", { exact: true })
    .setInputFiles({ name: "mine.png", mimeType: "image/png", buffer: png });
  await expect(visitor.getByRole("img", { name: "mine.png preview" })).toBeVisible();
  await expect(visitor.getByText(APP_MESSAGES.mediaRequired("Photo"))).toHaveCount(0);
  await style.fill("an ink sketch");
  const started = visitor.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/apps/${app.slug}/runs`) &&
      response.request().method() === "POST",
  );
  await visitor.getByRole("button", { name: "Run" }).click();
  const sent = await started;
  expect(sent.status()).toBe(202);
  const values = (
    JSON.parse(sent.request().postData() ?? "{}") as { values: Record<string, string> }
  ).values;
  expect(values["prompt/text"]).toBe("an ink sketch");
  expect(values["photo/file"]).toMatch(/\/api\/media\/file\/.+\.png$/);

  const result = visitor.getByRole("region", { name: "Run result" });
  await expect(result.getByRole("status")).toHaveText("Done", { timeout: 60_000 });
  const image = result.getByRole("img", { name: "Result" });
  await expect(image).toHaveAttribute("src", /\/api\/media\/file\//);
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
  const download = result.getByRole("link", { name: "Download" });
  await expect(download).toHaveAttribute("href", /\/api\/media\/file\//);
  await expect(download).toHaveAttribute("download", /.+/);
  const history = visitor.getByRole("region", { name: "Your runs" });
  await expect(history.getByRole("button")).toHaveCount(1);
  await expect(history.getByRole("button")).toContainText("Done");
  await visitor.screenshot({ path: "test-results/screens/app-page.png" });

  // The owner edits and saves the workflow: the app keeps version 1's form.
  await api("PUT", `/api/workflows/${workflow.id}`, {
    name: "Restyle",
    data: appWorkflow(photo, "a new default"),
    basedOn: workflow.updated_at,
  });
  await visitor.reload();
  await expect(visitor.getByText(/^Version 1 · published/)).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByLabel("Style", { exact: true })).toHaveValue("make it a watercolour");
  // The owner's history holds the visitor's run, with who ran it.
  await owner.goto(`/a/${app.slug}`);
  const every = owner.getByRole("region", { name: "Every run of this app" });
  await expect(every.getByRole("button")).toHaveCount(1);
  await expect(every.getByRole("button")).not.toContainText("by you");
  await every.getByRole("button").click();
  await expect(
    owner.getByRole("region", { name: "Run result" }).getByRole("img", { name: "Result" }),
  ).toBeVisible();

  // Republished: version 2's form.
  const again = await api<{ app: { version: number } }>(
    "PUT",
    `/api/workflows/${workflow.id}/app`,
    SETTINGS,
  );
  expect(again.app.version).toBe(2);
  await visitor.reload();
  await expect(visitor.getByText(/^Version 2 · published/)).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByLabel("Style", { exact: true })).toHaveValue("a new default");
  await ownerContext.close();
  await visitorContext.close();
});

test("an unknown app, or one shared only by link, is not found", async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto("/a/no-such-app-12345678");
  await expect(page.getByRole("heading", { name: APP_MESSAGES.notFound })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page).toHaveTitle("App not found");

  // A link-only app: its owner opens it, a stranger without the link does not.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const canvas = new CanvasPage(owner);
  await canvas.open();
  await canvas.signUp("app-link-owner");
  const api = apiOf(owner.request, baseURL as string);
  const png = await pngOf(owner);
  const uploaded = await owner.request.post("/api/media", {
    headers: { origin: baseURL as string },
    multipart: {
      workflowId: "temporary",
      file: { name: "photo.png", mimeType: "image/png", buffer: png },
    },
  });
  const photo = ((await uploaded.json()) as { url: string }).url;
  const { workflow } = await api<{ workflow: { id: string } }>("POST", "/api/workflows", {
    name: "Private",
    data: appWorkflow(photo, "ink"),
  });
  const { app } = await api<{ app: { slug: string } }>("PUT", `/api/workflows/${workflow.id}/app`, {
    ...SETTINGS,
    name: "Private app",
    access: "link",
  });
  await owner.goto(`/a/${app.slug}`);
  await expect(owner.getByRole("heading", { name: "Private app" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(owner.getByRole("heading", { name: "Every run of this app" })).toBeVisible();
  await page.goto(`/a/${app.slug}`);
  await expect(page.getByRole("heading", { name: APP_MESSAGES.notFound })).toBeVisible();
  await ownerContext.close();
});

test("the owner publishes from the Share dialog; a run link opens the link-only app for another account", async ({
  page,
  browser,
  baseURL,
}) => {
  const origin = baseURL as string;
  const owner = new CanvasPage(page);
  await owner.open();
  await owner.signUp("app-publisher");
  const api = apiOf(page.request, origin);
  const png = await pngOf(page);
  const uploaded = await page.request.post("/api/media", {
    headers: { origin },
    multipart: {
      workflowId: "temporary",
      file: { name: "photo.png", mimeType: "image/png", buffer: png },
    },
  });
  const photo = ((await uploaded.json()) as { url: string }).url;
  await api("POST", "/api/workflows", {
    name: "Restyle",
    data: appWorkflow(photo, "make it a watercolour"),
  });
  await page.getByRole("tab", { name: "Library" }).click();
  const folders = page.getByRole("region", { name: "Folders" });
  await folders.getByRole("button", { name: /^Unfiled/ }).click();
  await folders
    .getByRole("list", { name: "Workflows in this folder" })
    .getByRole("button", { name: "Restyle", exact: true })
    .click();
  await expect(owner.node("edit")).toBeVisible();

  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share" });
  await dialog.getByRole("tab", { name: "App" }).click();
  const panel = dialog.getByRole("form", { name: "Publish as an app" });
  await expect(panel.getByText(/^Not published/)).toBeVisible();
  // Suggested: the upload, the free prompt and the final result.
  await expect(panel.getByRole("checkbox", { name: /^Uploaded file/ })).toBeChecked();
  await expect(panel.getByRole("checkbox", { name: "prompt", exact: true })).toBeChecked();
  await expect(panel.getByRole("checkbox", { name: "edit", exact: true })).toBeChecked();
  await expect(panel.getByRole("checkbox", { name: "Prompt · set by a wire" })).not.toBeChecked();
  await panel.getByRole("textbox", { name: "Name" }).fill("Restyle a photo");
  await panel.getByRole("textbox", { name: "Label for prompt" }).fill("Style");
  await panel.getByRole("textbox", { name: "Label for Uploaded file" }).fill("Photo");
  await panel.getByRole("textbox", { name: "Label for edit" }).fill("Result");
  await panel.getByRole("radio", { name: "Only people with a run link" }).check();
  await panel.getByRole("button", { name: "Publish" }).click();
  await expect(panel.getByRole("status")).toHaveText("Published version 1");
  const address = (await panel.locator(".publish-url code").textContent()) ?? "";
  expect(address).toMatch(new RegExp(`^${origin}/a/restyle-a-photo-[a-z0-9]{8}$`));
  await expect(panel.getByRole("link", { name: "Open" })).toHaveAttribute(
    "href",
    address.slice(origin.length),
  );
  await owner.shot("app-publish-panel");

  await dialog.getByRole("tab", { name: "Links" }).click();
  await dialog.getByLabel("Role").selectOption("run");
  await dialog.getByRole("button", { name: "Create link" }).click();
  const runLink = await dialog.getByLabel("run link", { exact: true }).inputValue();
  const token = runLink.split("/s/")[1] ?? "";

  // Another account: the app's own address is not theirs to open; the run link is.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(address);
  await expect(visitor.getByRole("heading", { name: APP_MESSAGES.notFound })).toBeVisible({
    timeout: 30_000,
  });
  await visitor.goto(runLink);
  await expect(visitor.getByRole("heading", { name: "Restyle a photo" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(visitor).toHaveTitle("Restyle a photo");
  await visitor.getByRole("button", { name: "Sign in" }).click();
  await visitor
    .getByRole("dialog", { name: "Sign in" })
    .getByRole("button", { name: "Create an account" })
    .click();
  const signUp = visitor.getByRole("dialog", { name: "Create an account" });
  await signUp.getByLabel("Email").fill(`app-linked-${Date.now()}@example.com`);
  await signUp.getByLabel("Password").fill("correct horse battery");
  await signUp.getByRole("button", { name: "Create account" }).click();
  await visitor
    .getByLabel("Photo", { exact: true })
    .setInputFiles({ name: "mine.png", mimeType: "image/png", buffer: png });
  await expect(visitor.getByRole("img", { name: "mine.png preview" })).toBeVisible();
  await visitor.getByLabel("Style", { exact: true }).fill("charcoal");
  const started = visitor.waitForResponse(
    (response) => response.url().endsWith("/runs") && response.request().method() === "POST",
  );
  await visitor.getByRole("button", { name: "Run" }).click();
  const sent = await started;
  expect(sent.status()).toBe(202);
  expect(await sent.request().headerValue("x-share-token")).toBe(token);
  const result = visitor.getByRole("region", { name: "Run result" });
  await expect(result.getByRole("status")).toHaveText("Done", { timeout: 60_000 });
  await expect
    .poll(() =>
      result
        .getByRole("img", { name: "Result" })
        .evaluate((element: HTMLImageElement) => element.naturalWidth),
    )
    .toBeGreaterThan(0);
  await visitorContext.close();
});
