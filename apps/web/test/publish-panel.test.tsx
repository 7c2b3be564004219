import { APP_MESSAGES, type AppSettings } from "@atelier/core";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PublishPanel } from "../src/features/apps/PublishPanel.tsx";
import { DocumentProvider } from "../src/features/document/context.tsx";
import { createDocumentStore } from "../src/features/document/store.ts";
import { useWorkspace } from "../src/features/workspace/store.ts";
import { node, values, wire } from "./helpers/graph.ts";

const PHOTO = "/api/media/file/u/w/1-a.png";

const graph = () => ({
  nodes: [
    node("photo", "utility", {
      label: "Utility",
      outputs: { imageUrl: PHOTO },
      outputValues: { output: { value: PHOTO } },
    }),
    node("prompt", "text", { label: "Style", inputValues: values({ text: "ink" }) }),
    node("edit", "flux-kontext", { label: "FLUX.1 Kontext" }),
  ],
  edges: [wire("photo", "output", "edit", "image"), wire("prompt", "text", "edit", "prompt")],
});

const published = (version: number, body: Record<string, unknown>): AppSettings => ({
  slug: "restyle-abcd1234",
  version,
  publishedAt: "2026-11-25T10:00:00.000Z",
  description: "",
  access: "public",
  ...(body as Partial<AppSettings>),
  name: String(body.name),
  fields: body.fields as AppSettings["fields"],
  outputs: body.outputs as AppSettings["outputs"],
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The server as far as the panel asks it: not published at first. */
function fakeServer() {
  let app: AppSettings | null = null;
  const requests: { method: string; url: string; body: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    requests.push({ method, url, body });
    if (url !== "/api/workflows/w1/app") return json(404, { error: "Not found" });
    if (method === "GET")
      return app ? json(200, { app }) : json(404, { error: APP_MESSAGES.notPublished });
    if (method === "PUT") {
      if (body.outputs.length === 0) return json(400, { error: APP_MESSAGES.noOutputs });
      app = published((app?.version ?? 0) + 1, body);
      return json(200, { app });
    }
    app = null;
    return json(200, { success: true });
  });
  return { fetch, requests };
}

function show() {
  render(
    <DocumentProvider store={createDocumentStore(graph())}>
      <PublishPanel workflowId="w1" />
    </DocumentProvider>,
  );
}

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  vi.stubGlobal("fetch", server.fetch);
  useWorkspace.setState({ name: "Restyle", dirty: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the publish panel", () => {
  it("suggests the upload, the free prompt and the final result, and publishes them", async () => {
    show();
    const name = await screen.findByRole("textbox", { name: "Name" });
    expect(name).toHaveProperty("value", "Restyle");
    expect(screen.getByText(/^Not published/)).toBeTruthy();
    const inputs = screen.getByRole("group", { name: "Inputs people fill in" });
    expect(
      within(inputs)
        .getAllByRole("group")
        .map((group) => group.querySelector("legend")?.textContent),
    ).toEqual(["Utility", "Style", "FLUX.1 Kontext"]);
    expect(screen.getByRole("checkbox", { name: /Uploaded file/ })).toHaveProperty("checked", true);
    expect(screen.getByRole("checkbox", { name: "Style" })).toHaveProperty("checked", true);
    // The model's prompt is fed by a wire: offered, not suggested.
    expect(screen.getByRole("checkbox", { name: "Prompt · set by a wire" })).toHaveProperty(
      "checked",
      false,
    );
    fireEvent.click(screen.getByRole("checkbox", { name: "Seed" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Label for Uploaded file" }), {
      target: { value: "Your photo" },
    });
    fireEvent.change(screen.getByRole("textbox", { name: "Description" }), {
      target: { value: "Restyle any photo." },
    });
    fireEvent.click(screen.getByRole("radio", { name: "Only people with a run link" }));
    fireEvent.click(screen.getByRole("button", { name: "Publish" }));

    await screen.findByText("Published version 1");
    expect(server.requests.at(-1)).toEqual({
      method: "PUT",
      url: "/api/workflows/w1/app",
      body: {
        name: "Restyle",
        description: "Restyle any photo.",
        access: "link",
        fields: [
          { kind: "media", nodeId: "photo", label: "Your photo" },
          { kind: "param", nodeId: "prompt", param: "text", label: "Style" },
          { kind: "param", nodeId: "edit", param: "seed", label: "Seed" },
        ],
        outputs: [{ nodeId: "edit", label: "FLUX.1 Kontext" }],
      },
    });
    expect(screen.getByText(`${location.origin}/a/restyle-abcd1234`)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open" }).getAttribute("href")).toBe(
      "/a/restyle-abcd1234",
    );
    expect(screen.getByText(/^Version 1 · published/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Republish" })).toBeTruthy();
  });

  it("says the saved version is what publishes, shows the server's refusal, and unpublishes", async () => {
    useWorkspace.setState({ dirty: true });
    show();
    await screen.findByText("Publishes the last saved version — save first");
    fireEvent.click(screen.getByRole("checkbox", { name: "FLUX.1 Kontext" }));
    fireEvent.click(screen.getByRole("button", { name: "Publish" }));
    expect((await screen.findByRole("alert")).textContent).toBe(APP_MESSAGES.noOutputs);
    // Refused before asking the server.
    expect(server.requests.filter((request) => request.method === "PUT")).toHaveLength(0);

    fireEvent.click(screen.getByRole("checkbox", { name: "FLUX.1 Kontext" }));
    fireEvent.click(screen.getByRole("button", { name: "Publish" }));
    await screen.findByText("Published version 1");
    fireEvent.click(screen.getByRole("button", { name: "Republish" }));
    await screen.findByText("Published version 2");

    fireEvent.click(screen.getByRole("button", { name: "Unpublish…" }));
    fireEvent.click(screen.getByRole("button", { name: "Unpublish" }));
    await screen.findByText("Unpublished: the app's page no longer opens");
    expect(server.requests.at(-1)).toMatchObject({ method: "DELETE" });
    expect(screen.getByRole("button", { name: "Publish" })).toBeTruthy();
  });

  it("reopens with the published settings", async () => {
    show();
    fireEvent.click(await screen.findByRole("checkbox", { name: "Style" }));
    fireEvent.click(screen.getByRole("button", { name: "Publish" }));
    await screen.findByText("Published version 1");
    cleanup();
    show();
    await screen.findByText(/^Version 1 · published/);
    expect(screen.getByRole("checkbox", { name: "Style" })).toHaveProperty("checked", false);
    expect(screen.getByRole("checkbox", { name: /Uploaded file/ })).toHaveProperty("checked", true);
  });
});
