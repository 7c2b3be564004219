import {
  APP_MESSAGES,
  type AppRun,
  type AppView,
  SHARE_MESSAGES,
  SHARE_TOKEN_HEADER,
} from "@atelier/core";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppPage } from "../src/features/apps/AppPage.tsx";
import { authCache } from "../src/services/auth-cache.ts";

const APP: AppView = {
  slug: "poster-abcd1234",
  name: "Poster maker",
  description: "Say what the poster shows.",
  access: "public",
  version: 3,
  publishedAt: "2026-11-25T10:00:00.000Z",
  isOwner: false,
  fields: [
    {
      id: "prompt/text",
      label: "Idea",
      input: { type: "text", multiline: true, default: "a fox" },
    },
    {
      id: "image/numImages",
      label: "Images",
      input: { type: "number", min: 1, max: 4, integer: true, default: 1 },
    },
  ],
  outputs: [{ nodeId: "image", label: "Poster" }],
};
const RESULT = "/api/media/file/u/w/1-poster.png";
const TOKEN = "t".repeat(32);

const run = (status: string, values: string[] = []): AppRun => ({
  id: "run-1",
  status,
  version: 3,
  createdAt: "2026-11-25T10:05:00.000Z",
  completedAt: status === "completed" ? "2026-11-25T10:05:09.000Z" : null,
  runBy: null,
  progress: status === "running" ? 40 : null,
  outputs: [{ nodeId: "image", label: "Poster", status: "completed", values }],
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The server as far as the page asks it. */
function fakeServer() {
  const requests: { method: string; url: string; body: unknown; headers: Headers }[] = [];
  let reads = 0;
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, url, body, headers: new Headers(init.headers) });
    if (url === "/api/auth/admin-status") return json(200, { isAdmin: false });
    if (url === `/api/apps/${APP.slug}`) return json(200, { app: APP });
    if (url === `/api/apps/${APP.slug}/runs` && method === "GET") return json(200, { runs: [] });
    if (url === `/api/apps/${APP.slug}/runs`) return json(202, { run: run("queued") });
    if (url === `/api/apps/${APP.slug}/runs/run-1`) {
      reads += 1;
      return json(200, { run: reads === 1 ? run("running") : run("completed", [RESULT]) });
    }
    return json(404, { error: APP_MESSAGES.notFound });
  });
  return { fetch, requests };
}

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  vi.stubGlobal("fetch", server.fetch);
  document.title = "Atelier";
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const signedIn = () => authCache.reset({ id: "u2", email: "bo@example.com", name: "Bo" });

describe("the app page", () => {
  it("says an unknown or unshared app is not found", async () => {
    authCache.reset(null);
    render(<AppPage slug="nope" />);
    await screen.findByRole("heading", { name: APP_MESSAGES.notFound });
    // The title follows in an effect after the heading is drawn.
    await waitFor(() => expect(document.title).toBe("App not found"));
  });

  it("shows the form to a signed-out visitor, who is asked to sign in to run it", async () => {
    authCache.reset(null);
    render(<AppPage slug={APP.slug} />);
    await screen.findByRole("heading", { name: "Poster maker" });
    expect(document.title).toBe("Poster maker");
    expect(screen.getByText("Say what the poster shows.")).toBeTruthy();
    expect(screen.getByText("Version 3 · published Nov 25, 2026")).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Idea" })).toHaveProperty("value", "a fox");
    expect(screen.getByText(SHARE_MESSAGES.signInToRun)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(screen.getByRole("dialog", { name: "Sign in" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Run" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Your runs" })).toBeNull();
    cleanup();
    expect(document.title).toBe("Atelier");
  });

  it("checks the form, runs it with the link's token, follows the run and shows the result", async () => {
    signedIn();
    render(<AppPage slug={APP.slug} shareToken={TOKEN} />);
    await screen.findByRole("heading", { name: "Your runs" });
    fireEvent.change(screen.getByRole("spinbutton", { name: /Images/ }), {
      target: { value: "9" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    await screen.findByText(APP_MESSAGES.badValue("Images", "Too big: expected a number <= 4"));
    expect(server.requests.some((request) => request.method === "POST")).toBe(false);

    fireEvent.change(screen.getByRole("spinbutton", { name: /Images/ }), {
      target: { value: "2" },
    });
    fireEvent.change(screen.getByRole("textbox", { name: "Idea" }), {
      target: { value: "a heron at dawn" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Run" }));
    const poster = await screen.findByRole("img", { name: "Poster" }, { timeout: 4000 });
    const result = screen.getByRole("region", { name: "Run result" });
    const post = server.requests.find((request) => request.method === "POST");
    expect(post?.body).toEqual({
      values: { "prompt/text": "a heron at dawn", "image/numImages": 2 },
    });
    expect(post?.headers.get(SHARE_TOKEN_HEADER)).toBe(TOKEN);

    expect(poster.getAttribute("src")).toBe(RESULT);
    expect(within(result).getByRole("status").textContent).toBe("Done");
    const download = within(result).getByRole("link", { name: "Download" });
    expect(download.getAttribute("href")).toBe(RESULT);
    expect(download.getAttribute("download")).toBe("1-poster.png");
    const history = screen.getByRole("region", { name: "Your runs" });
    expect(within(history).getByRole("button").textContent).toContain("Done");
    expect(screen.getByRole("button", { name: "Run" })).toHaveProperty("disabled", false);
  });
});
