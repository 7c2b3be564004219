import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { glbBytes, mp4Bytes, pngBytes, uploadForm, wavBytes } from "./helpers/files.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

interface Uploaded {
  id: string;
  url: string;
  path: string;
  error: string;
}

describe("media uploads (SPEC §5, §6)", () => {
  let server: TestServer;
  let alice: TestClient;
  let workflowId: string;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("alice@example.com");
    workflowId = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "W",
        data: makeWorkflow(),
      })
    ).body.workflow.id;
  });
  afterAll(() => server.close());

  async function upload(
    client: TestClient,
    file: { name: string; type: string; bytes: Buffer },
    fields: Record<string, string>,
  ) {
    const response = await client.raw("POST", "/api/media", { body: uploadForm(file, fields) });
    return { status: response.status, body: (await response.json()) as Uploaded };
  }

  it("stores a real image at {userId}/{workflowId}/{timestamp}-{random}.png and serves it inert", async () => {
    const bytes = await pngBytes();
    const result = await upload(
      alice,
      { name: "photo.png", type: "image/png", bytes },
      { workflowId, kind: "image" },
    );
    expect(result.status).toBe(201);
    const userId = (await alice.json<{ user: { id: string } }>("GET", "/api/auth/get-session")).body
      .user.id;
    expect(result.body.path).toMatch(
      new RegExp(`^${userId}/${workflowId}/\\d{13}-[0-9a-f]{24}\\.png$`),
    );
    expect(result.body.url).toBe(`${server.url}/api/media/file/${result.body.path}`);
    const served = await fetch(result.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it.each([
    ["clip.mp4", "video/mp4", mp4Bytes, "video"],
    ["voice.wav", "audio/wav", wavBytes, "audio"],
    ["model.glb", "application/octet-stream", glbBytes, "3d"],
  ])("accepts %s (%s)", async (name, type, bytes, kind) => {
    const result = await upload(alice, { name, type, bytes: bytes() }, { workflowId, kind });
    expect(result.status).toBe(201);
  });

  it("refuses a PNG named .mp4", async () => {
    const result = await upload(
      alice,
      { name: "fake.mp4", type: "video/mp4", bytes: await pngBytes() },
      { workflowId },
    );
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('MIME type "image/png" is not valid for video');
  });

  it("refuses a real PNG declared as video/mp4", async () => {
    const result = await upload(
      alice,
      { name: "photo.png", type: "video/mp4", bytes: await pngBytes() },
      { workflowId },
    );
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('MIME type "video/mp4" is not valid for image');
  });

  it("refuses a spoofed MIME type, a wrong extension for the kind, and unknown bytes", async () => {
    const spoofed = await upload(
      alice,
      { name: "page.png", type: "text/html", bytes: Buffer.from("<script>alert(1)</script>") },
      { workflowId },
    );
    expect(spoofed.body.error).toBe(
      'File type "text/html" is not allowed. Allowed types: images, videos, audio, 3D models',
    );
    const wrongKind = await upload(
      alice,
      { name: "clip.mp4", type: "video/mp4", bytes: mp4Bytes() },
      { workflowId, kind: "image" },
    );
    expect(wrongKind.body.error).toBe(
      'File extension "mp4" is not valid for image. Expected: jpg, jpeg, png, gif, webp, svg, bmp',
    );
    const exe = await upload(
      alice,
      { name: "tool.exe", type: "application/octet-stream", bytes: Buffer.from("MZ") },
      { workflowId },
    );
    expect(exe.body.error).toMatch(
      /^File extension "exe" is not allowed\. Allowed extensions: jpg, /,
    );
    const garbage = await upload(
      alice,
      { name: "noise.png", type: "image/png", bytes: Buffer.from("just some text") },
      { workflowId },
    );
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toBe(
      'File type "unknown" is not allowed. Allowed types: images, videos, audio, 3D models',
    );
  });

  it("refuses files over 50 MB", async () => {
    const big = Buffer.alloc(52_428_800 + 1024);
    (await pngBytes()).copy(big);
    const result = await upload(
      alice,
      { name: "huge.png", type: "image/png", bytes: big },
      { workflowId },
    );
    expect(result.status).toBe(413);
    expect(result.body.error).toBe("File size exceeds maximum allowed size of 50MB");
  });

  it("neutralises an SVG with script: stored without scripts or handlers", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)"><rect width="10" height="10" onclick="alert(4)"/></a><foreignObject><iframe src="https://evil.example"/></foreignObject></svg>`;
    const result = await upload(
      alice,
      { name: "logo.svg", type: "image/svg+xml", bytes: Buffer.from(svg) },
      { workflowId, kind: "image" },
    );
    expect(result.status).toBe(201);
    const served = await (await fetch(result.body.url)).text();
    expect(served).toContain("<rect");
    for (const bad of ["<script", "onload", "onclick", "javascript:", "foreignObject", "iframe"]) {
      expect(served).not.toContain(bad);
    }
    // Still a well-formed SVG document.
    const { JSDOM } = await import("jsdom");
    const parsed = new new JSDOM("").window.DOMParser().parseFromString(served, "image/svg+xml");
    expect(parsed.getElementsByTagName("parsererror")).toHaveLength(0);
  });

  it("keeps an SVG that opens with an XML declaration, with its viewBox", async () => {
    const svg = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10" preserveAspectRatio="none"><rect width="20" height="10" fill="#f00"/></svg>`;
    const result = await upload(
      alice,
      { name: "drawing.svg", type: "image/svg+xml", bytes: Buffer.from(svg) },
      { workflowId, kind: "image" },
    );
    expect(result.status).toBe(201);
    const served = await (await fetch(result.body.url)).text();
    expect(served).toMatch(/^<svg /);
    expect(served).toContain('viewBox="0 0 20 10"');
    expect(served).toContain('preserveAspectRatio="none"');
    expect(served).toContain("<rect");
  });

  it("ignores path-like file names: the stored path is ours", async () => {
    const result = await upload(
      alice,
      { name: "../../../etc/passwd.png", type: "image/png", bytes: await pngBytes() },
      { workflowId },
    );
    expect(result.status).toBe(201);
    expect(result.body.path).not.toContain("..");
    expect(result.body.path.endsWith(".png")).toBe(true);
    const traversal = await fetch(`${server.url}/api/media/file/..%2F..%2Fauth-secret`);
    expect(traversal.status).toBe(404);
  });

  it("lets a signed-out user upload only for the temporary workflow, under the anonymous folder", async () => {
    const anonymous = new TestClient(server.url);
    const allowed = await upload(
      anonymous,
      { name: "a.png", type: "image/png", bytes: await pngBytes() },
      { workflowId: "temporary" },
    );
    expect(allowed.status).toBe(201);
    expect(allowed.body.path).toMatch(/^anonymous\/temporary\//);
    const refused = await upload(
      anonymous,
      { name: "a.png", type: "image/png", bytes: await pngBytes() },
      { workflowId },
    );
    expect(refused.status).toBe(401);
  });

  it("removes files with their workflow", async () => {
    const doomed = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Doomed",
        data: makeWorkflow(),
      })
    ).body.workflow.id;
    const file = await upload(
      alice,
      { name: "a.png", type: "image/png", bytes: await pngBytes() },
      { workflowId: doomed },
    );
    expect((await fetch(file.body.url)).status).toBe(200);
    await alice.json("DELETE", `/api/workflows/${doomed}`);
    expect((await fetch(file.body.url)).status).toBe(404);
    expect(await server.ctx.store.get(file.body.path)).toBeNull();
  });

  it("keeps a file a copy still uses when the original workflow is deleted", async () => {
    const original = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Orig",
        data: makeWorkflow(),
      })
    ).body.workflow.id;
    const file = await upload(
      alice,
      { name: "a.png", type: "image/png", bytes: await pngBytes() },
      { workflowId: original },
    );
    const fork = await alice.json<{ workflowId: string }>("POST", "/api/workflows/fork", {
      sourceWorkflowId: original,
    });
    await alice.json("DELETE", `/api/workflows/${original}`);
    expect((await fetch(file.body.url)).status).toBe(200);
    await alice.json("DELETE", `/api/workflows/${fork.body.workflowId}`);
    expect((await fetch(file.body.url)).status).toBe(404);
  });

  it("fills the workflow's media refs from its manifest (id|path|nodeId|outputKey|type); a fork names its own rows", async () => {
    type Row = { workflow: { media_refs: string[]; updated_at: string } };
    const id = (
      await alice.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
        name: "Refs",
        data: makeWorkflow(),
      })
    ).body.workflow.id;
    const before = (await alice.json<Row>("GET", `/api/workflows/${id}`)).body.workflow;
    expect(before.media_refs).toEqual([]);
    const file = await upload(
      alice,
      { name: "a.png", type: "image/png", bytes: await pngBytes() },
      { workflowId: id, nodeId: "node-1", outputKey: "imageUrl" },
    );
    // A file that belongs to no node output has no ref.
    await upload(
      alice,
      { name: "b.png", type: "image/png", bytes: await pngBytes() },
      { workflowId: id },
    );
    const after = (await alice.json<Row>("GET", `/api/workflows/${id}`)).body.workflow;
    expect(after.media_refs).toEqual([
      `${file.body.id}|${file.body.path}|node-1|imageUrl|image/png`,
    ]);
    // Not an edit: a save based on the version before the upload still lands.
    expect(after.updated_at).toBe(before.updated_at);

    const fork = await alice.json<{ workflowId: string }>("POST", "/api/workflows/fork", {
      sourceWorkflowId: id,
    });
    const forked = (await alice.json<Row>("GET", `/api/workflows/${fork.body.workflowId}`)).body
      .workflow;
    expect(forked.media_refs).toHaveLength(1);
    const [refId, path, nodeId, outputKey, type] = (forked.media_refs[0] as string).split("|");
    expect(refId).not.toBe(file.body.id);
    expect([path, nodeId, outputKey, type]).toEqual([
      file.body.path,
      "node-1",
      "imageUrl",
      "image/png",
    ]);
  });
});
