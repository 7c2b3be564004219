import { connect } from "node:net";
import type { SavedWorkflow } from "@atelier/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { pngBytes } from "./helpers/files.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";
import { makeWorkflow } from "./helpers/workflows.ts";

const NUL = "Invalid request: text must not contain NUL (\\u0000) characters";
const DEEP = "Invalid request: data is nested more than 100 levels deep";
const SURROGATE =
  "Invalid request: text must be valid Unicode (it holds a lone surrogate, \\ud800–\\udfff)";

interface Row {
  id: string;
  name: string;
  updated_at: string;
}

describe("bad input answers 400/413 with a message, and the server keeps serving", () => {
  let server: TestServer;
  let alice: TestClient;
  let row: Row;
  let folderId: string;
  beforeAll(async () => {
    server = await startTestServer();
    alice = new TestClient(server.url);
    await alice.signUp("bad-input@example.com");
    row = (
      await alice.json<{ workflow: Row }>("POST", "/api/workflows", {
        name: "Target",
        data: makeWorkflow("Target"),
      })
    ).body.workflow;
    folderId = (await alice.json<{ folder: { id: string } }>("POST", "/api/folders", { name: "F" }))
      .body.folder.id;
  });
  afterAll(() => server.close());
  afterEach(async () => {
    expect((await alice.json("GET", "/api/health")).status).toBe(200);
  });

  /** A JSON request whose body is sent as written (deep nesting cannot be stringified here). */
  const send = async (method: string, path: string, text: string) => {
    const response = await alice.raw(method, path, {
      body: text,
      headers: { "content-type": "application/json" },
    });
    return { status: response.status, body: await response.json() };
  };

  const { nodes, edges, ...head } = makeWorkflow("Target");
  const workflow = (data: SavedWorkflow = makeWorkflow("Target")) => ({ name: "Target", data });

  describe("a NUL byte", () => {
    const withNul = "bad\u0000name";
    it.each<[string, string, string, () => unknown]>([
      [
        "workflow name (create)",
        "POST",
        "/api/workflows",
        () => ({ ...workflow(), name: withNul }),
      ],
      [
        "workflow name (save)",
        "PUT",
        "/api/workflows/:id",
        () => ({ ...workflow(), name: withNul, basedOn: row.updated_at }),
      ],
      [
        "workflow name (delta save)",
        "PATCH",
        "/api/workflows/:id",
        () => ({ name: withNul, basedOn: row.updated_at, data: head, nodes: [], removed: [] }),
      ],
      ["node text (create)", "POST", "/api/workflows", () => workflow(makeWorkflow(withNul))],
      ["folder name (create)", "POST", "/api/folders", () => ({ name: withNul })],
      ["folder name (rename)", "PATCH", "/api/folders/:folder", () => ({ name: withNul })],
      ["fork source id", "POST", "/api/workflows/fork", () => ({ sourceWorkflowId: withNul })],
      ["moved id", "PUT", "/api/folders/unfiled/workflows", () => ({ workflowIds: [withNul] })],
      ["copied id", "POST", "/api/folders/unfiled/workflows", () => ({ workflowIds: [withNul] })],
      ["job id (status)", "POST", "/api/queue/status", () => ({ requestId: withNul })],
      ["job id (cancel)", "POST", "/api/queue/cancel", () => ({ requestId: withNul })],
      [
        "job id (check_status)",
        "POST",
        "/api/generate/runway-video",
        () => ({ action: "check_status", task_id: withNul }),
      ],
      [
        "object key",
        "POST",
        "/api/generate/flux-pro",
        () => ({ nodeId: "n1", inputs: { prompt: "x" }, params: { [withNul]: 1 } }),
      ],
    ])("in a %s", async (_case, method, path, body) => {
      const url = path.replace(":id", row.id).replace(":folder", folderId);
      const answer = await send(method, url, JSON.stringify(body()));
      expect(answer).toEqual({ status: 400, body: { error: NUL } });
    });

    it.each([
      ["GET", "/api/workflows/bad%00id"],
      ["DELETE", "/api/workflows/bad%00id"],
      ["GET", "/api/workflows/bad%00id/events"],
      ["DELETE", "/api/folders/bad%00id"],
      ["DELETE", "/api/media/bad%00id"],
      ["GET", "/api/workflows?folderId=bad%00id"],
      ["GET", "/api/media?workflowId=bad%00id"],
      ["GET", "/api/queue/jobs?workflowId=bad%00id"],
      ["GET", "/api/generate/flux-pro?requestId=bad%00id"],
      ["GET", "/api/media/file/anonymous/temporary/bad%00.png"],
    ])("in the URL: %s %s", async (method, path) => {
      const answer = await alice.json(method, path);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: NUL });
    });

    it("in a multipart field of an upload", async () => {
      const form = new FormData();
      form.append("workflowId", withNul);
      form.append(
        "file",
        new Blob([new Uint8Array(await pngBytes())], { type: "image/png" }),
        "a.png",
      );
      const response = await alice.raw("POST", "/api/media", { body: form });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: NUL });
    });

    it("in a sign-up name", async () => {
      const answer = await new TestClient(server.url).json("POST", "/api/auth/sign-up/email", {
        email: "nul@example.com",
        password: "correct horse battery",
        name: withNul,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: NUL });
    });
  });

  describe("node data nested 10,000 levels deep", () => {
    const deep = `${'{"a":'.repeat(10_000)}"x"${"}".repeat(10_000)}`;
    /** `value` as JSON text with the marker string replaced by the deep object. */
    const withDeep = (value: unknown) => JSON.stringify(value).replace('"@deep@"', deep);
    const deepNode = () => {
      const data = makeWorkflow("Target");
      (data.nodes[0] as { data: Record<string, unknown> }).data.extra = "@deep@";
      return data;
    };

    it.each<[string, string, string, () => unknown]>([
      ["create", "POST", "/api/workflows", () => workflow(deepNode())],
      [
        "save",
        "PUT",
        "/api/workflows/:id",
        () => ({ ...workflow(deepNode()), basedOn: row.updated_at }),
      ],
      [
        "delta save",
        "PATCH",
        "/api/workflows/:id",
        () => ({
          name: "Target",
          basedOn: row.updated_at,
          data: head,
          nodes: deepNode().nodes.slice(0, 1),
          removed: [],
        }),
      ],
      [
        "staged batch",
        "PUT",
        "/api/workflows/:id/saves/save-deep-0001/batches/0",
        () => ({ nodes: deepNode().nodes }),
      ],
      [
        "generation params",
        "POST",
        "/api/generate/flux-pro",
        () => ({ nodeId: "n1", inputs: { prompt: "x" }, params: { extra: "@deep@" } }),
      ],
    ])("on %s", async (_case, method, path, body) => {
      const answer = await send(method, path.replace(":id", row.id), withDeep(body()));
      expect(answer).toEqual({ status: 400, body: { error: DEEP } });
    });

    it("on sign-up", async () => {
      const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: withDeep({
          email: "deep@example.com",
          password: "correct horse battery",
          name: "@deep@",
        }),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: DEEP });
    });

    it("but nesting of 100 levels is taken", async () => {
      const data = makeWorkflow("Target");
      // The body, its data, the node list, a node and the node's data are 5 levels: 95 more
      // make 100, the most taken.
      let nested: unknown = "x";
      for (let level = 0; level < 95; level++) nested = { a: nested };
      (data.nodes[0] as { data: Record<string, unknown> }).data.extra = nested;
      expect((await alice.json("POST", "/api/workflows", workflow(data))).status).toBe(201);
      (data.nodes[0] as { data: Record<string, unknown> }).data.extra = { a: nested };
      expect((await alice.json("POST", "/api/workflows", workflow(data))).body).toEqual({
        error: DEEP,
      });
    });
  });

  it("a malformed multipart body", async () => {
    const response = await alice.raw("POST", "/api/media", {
      body: '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      headers: { "content-type": "multipart/form-data; boundary=xx" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Invalid upload: Unexpected end of multipart data",
    });
  });

  it.each([
    ["data:text/html,<script>alert(1)</script>", 'File type "text/html" is not allowed'],
    [
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      'File type "text/html" is not allowed',
    ],
    ["data:;base64,PHNjcmlwdD4=", 'File type "unknown" is not allowed'],
    ["data:image/png,%E0%A4%A", "Invalid media data: must be URL or base64 data URL"],
  ])("a media input %s in a generate request", async (image, message) => {
    const answer = await alice.json("POST", "/api/generate/crop", {
      nodeId: "n1",
      inputs: { image },
    });
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(
      message.startsWith("File type")
        ? `${message}. Allowed types: images, videos, audio, 3D models`
        : message,
    );
  });

  it('keeps a number-like name such as "1e999999" as the string it is', async () => {
    const created = await alice.json<{ workflow: Row }>("POST", "/api/workflows", {
      ...workflow(),
      name: "1e999999",
    });
    expect(created.body.workflow.name).toBe("1e999999");
    const read = await alice.json<{ workflow: Row }>(
      "GET",
      `/api/workflows/${created.body.workflow.id}`,
    );
    expect(read.body.workflow.name).toBe("1e999999");
    const folder = await alice.json<{ folder: { name: string } }>("POST", "/api/folders", {
      name: "1e999999",
    });
    expect(folder.body.folder.name).toBe("1e999999");
    const fork = await alice.json<{ workflowId: string }>("POST", "/api/workflows/fork", {
      sourceWorkflowId: row.id,
      options: { name: "1e999999" },
    });
    const forked = await alice.json<{ workflow: Row }>(
      "GET",
      `/api/workflows/${fork.body.workflowId}`,
    );
    expect(forked.body.workflow.name).toBe("1e999999");
    // Sent as a JSON number it is no name at all.
    const number = await send(
      "POST",
      "/api/workflows",
      JSON.stringify(workflow()).replace('"name":"Target"', '"name":1e999999'),
    );
    expect(number).toEqual({
      status: 400,
      body: { error: "Invalid request: name: Invalid input: expected string, received Infinity" },
    });
  });

  it("refuses a lone surrogate instead of storing U+FFFD, and keeps pairs exactly", async () => {
    for (const [method, path, text] of [
      [
        "POST",
        "/api/workflows",
        JSON.stringify(workflow()).replace('"name":"Target"', '"name":"a\\ud800b"'),
      ],
      ["POST", "/api/folders", '{"name":"a\\udc00"}'],
      ["PATCH", `/api/folders/${folderId}`, '{"name":"\\ud83d"}'],
    ] as const) {
      expect(await send(method, path, text)).toEqual({ status: 400, body: { error: SURROGATE } });
    }
    const paired = await send("POST", "/api/folders", '{"name":"Palette \\ud83c\\udfa8"}');
    expect(paired.status).toBe(201);
    expect(paired.body.folder.name).toBe("Palette 🎨");
  });
});

describe("an over-limit body gets a readable 413 every time", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /**
   * Sends the whole request before reading anything, as many clients do: when the server
   * answered early and closed, the rest of the upload met a reset and the answer was lost.
   */
  const sendAllThenRead = (path: string, type: string, body: Buffer) =>
    new Promise<string>((resolve) => {
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname);
      socket.pause();
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      socket.on("end", () => resolve(Buffer.concat(chunks).toString()));
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${server.url}\r\n` +
          `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body, () => socket.resume());
    });

  const MB = 1024 * 1024;
  const answerOf = (raw: string) => ({
    status: raw.split(" ")[1],
    body: raw.slice(raw.indexOf("\r\n\r\n") + 4),
  });

  it("for a JSON body over a route's limit (10 tries each)", async () => {
    for (const [path, size] of [
      ["/api/folders", 16 * MB],
      ["/api/workflows", 40 * MB],
    ] as const) {
      const body = Buffer.alloc(size, "x");
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = answerOf(await sendAllThenRead(path, "application/json", body));
        expect(answer, `${path}, try ${attempt + 1}`).toEqual({
          status: "413",
          body: JSON.stringify({ error: "Request body is too large" }),
        });
      }
    }
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 60_000);

  it("for an upload over 50 MB (10 tries)", async () => {
    const boundary = "atelierboundary";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="workflowId"\r\n\r\ntemporary\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n` +
          "Content-Type: image/png\r\n\r\n",
      ),
      Buffer.alloc(52 * MB),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    for (let attempt = 0; attempt < 10; attempt++) {
      const answer = answerOf(
        await sendAllThenRead("/api/media", `multipart/form-data; boundary=${boundary}`, body),
      );
      expect(answer, `try ${attempt + 1}`).toEqual({
        status: "413",
        body: JSON.stringify({ error: "File size exceeds maximum allowed size of 50MB" }),
      });
    }
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 60_000);
});
