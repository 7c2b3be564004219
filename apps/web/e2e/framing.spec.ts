import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";

/**
 * Another origin of the same site: the same loopback host on another port (cookies are not
 * separated by port, and SameSite=Lax does not separate the origins of one site). It
 * serves a page that frames the app and a page that tries to upload into the victim's
 * account with the victim's cookie.
 */
let foreign: Server;
let foreignUrl: string;

// A 1×1 PNG.
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

test.beforeAll(async ({ baseURL }) => {
  const app = baseURL as string;
  foreign = createServer((request, response) => {
    response.setHeader("content-type", "text/html; charset=utf-8");
    if (request.url === "/frame") {
      response.end(`<!doctype html><title>Other origin</title>
<iframe id="app" src="${app}/" width="800" height="600"></iframe>`);
      return;
    }
    response.end("<!doctype html><title>Other origin</title><p>Hello</p>");
  });
  await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => foreign.close(() => resolve()));
});

test.describe("another origin of the same site", () => {
  test("cannot frame the app; the app's own origin can", async ({ page, baseURL }) => {
    const shell = page.waitForResponse((response) => response.url() === `${baseURL}/`);
    await page.goto(`${foreignUrl}/frame`);
    const headers = (await shell).headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    expect(headers["x-frame-options"]).toBe("SAMEORIGIN");
    // Chromium replaces a refused frame with its error page: the canvas never appears in it.
    const child = () => page.frames().find((each) => each !== page.mainFrame());
    await expect.poll(() => child()?.url()).toMatch(/^chrome-error:/);
    await expect(page.frameLocator("#app").locator(".react-flow")).toHaveCount(0);

    // Control: the same frame from the app's own origin loads the canvas.
    await page.goto("/");
    await page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.id = "self";
      frame.src = "/";
      frame.width = "800";
      frame.height = "600";
      document.body.append(frame);
    });
    await expect(page.frameLocator("#self").locator(".react-flow")).toBeVisible({
      timeout: 30_000,
    });
  });

  test("cannot upload into a signed-in user's account with their cookie", async ({
    page,
    baseURL,
  }) => {
    // Signed in on the app's origin (the context keeps the session cookie).
    const account = {
      email: `framing-${Date.now()}@example.com`,
      password: "correct horse battery",
      name: "Victim",
    };
    const sameOrigin = { origin: baseURL as string };
    for (const path of ["/api/auth/sign-up/email", "/api/auth/sign-in/email"]) {
      const answer = await page.request.post(path, { data: account, headers: sameOrigin });
      expect(answer.status(), path).toBe(200);
    }
    expect(
      (await page.context().cookies(baseURL)).some((cookie) =>
        cookie.name.endsWith("session_token"),
      ),
    ).toBe(true);

    const upload = async (target: string) =>
      page.evaluate(
        async ({ target, png }) => {
          const bytes = Uint8Array.from(atob(png), (char) => char.charCodeAt(0));
          const form = new FormData();
          form.append("workflowId", "temporary");
          form.append("file", new Blob([bytes], { type: "image/png" }), "a.png");
          // A simple request (multipart): no preflight; the cookie goes with it.
          await fetch(target, {
            method: "POST",
            body: form,
            credentials: "include",
            mode: "no-cors",
          }).catch(() => undefined);
        },
        { target, png: PNG_BASE64 },
      );
    const uploadAnswer = () =>
      page.waitForResponse(
        (response) =>
          response.url() === `${baseURL}/api/media` && response.request().method() === "POST",
      );
    const countStored = async () =>
      (
        (await (await page.request.get("/api/media?workflowId=temporary")).json()) as {
          media: unknown[];
        }
      ).media.length;

    // From another origin of the same site: the cookie is sent, the server refuses. The
    // browser then hides the answer from the page (no CORS, CORP same-origin), so the
    // server's status and the request's real headers are read from the network (CDP).
    await page.goto(`${foreignUrl}/`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    // CDP's events about one request may come in any order: gather them, then read.
    const uploads = new Set<string>();
    const sentHeaders = new Map<string, Record<string, string>>();
    const statuses = new Map<string, number>();
    cdp.on("Network.requestWillBeSent", (event) => {
      if (event.request.url === `${baseURL}/api/media` && event.request.method === "POST")
        uploads.add(event.requestId);
    });
    cdp.on("Network.requestWillBeSentExtraInfo", (event) => {
      sentHeaders.set(event.requestId, event.headers as Record<string, string>);
    });
    cdp.on("Network.responseReceivedExtraInfo", (event) => {
      statuses.set(event.requestId, event.statusCode);
    });
    const upload0 = () => [...uploads][0] ?? "";
    await upload(`${baseURL}/api/media`);
    await expect.poll(() => statuses.get(upload0())).toBe(403);
    const sent = Object.fromEntries(
      Object.entries(sentHeaders.get(upload0()) ?? {}).map(([name, value]) => [
        name.toLowerCase(),
        value,
      ]),
    );
    expect(sent.origin).toBe(foreignUrl);
    expect(sent.cookie).toMatch(/session_token=/);
    await cdp.detach();
    expect(await countStored()).toBe(0);

    // Control: the same upload from the app's own page is stored.
    await page.goto("/");
    const accepted = uploadAnswer();
    await upload("/api/media");
    expect((await accepted).status()).toBe(201);
    expect(await countStored()).toBe(1);
  });
});
