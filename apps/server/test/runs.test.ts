import { type RunNode, type RunView, runSignatureOf } from "@atelier/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "./helpers/client.ts";
import { chainGraph, chainWorkflow, waitForRun } from "./helpers/runs.ts";
import { startTestServer, type TestServer } from "./helpers/server.ts";

type RunAnswer = { run: RunView };
type StoredNode = {
  id: string;
  data: Record<string, unknown> & { outputs?: Record<string, unknown> };
};
type Opened = { workflow: { updated_at: string; data: { nodes: StoredNode[] } } };

describe("runs on the server", () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "10" });
    await server.ctx.work({ concurrency: 4 });
    client = new TestClient(server.url);
    await client.signUp("runner@example.com");
  }, 60_000);
  afterAll(() => server.close());

  it("runs a device-only graph in dependency order, passing outputs downstream", async () => {
    const started = await client.json<RunAnswer>("POST", "/api/runs", { graph: chainGraph() });
    expect(started.status).toBe(202);
    expect(started.body.run.status).toBe("queued");
    expect(started.body.run.nodes.map((node) => [node.id, node.status])).toEqual([
      ["image", "queued"],
      ["video", "queued"],
      ["upscale", "queued"],
    ]);
    const run = await waitForRun(client, started.body.run.id);
    expect(run.status).toBe("completed");
    expect(run.nodes.map((node) => node.status)).toEqual(["completed", "completed", "completed"]);
    const [image, video, upscale] = run.nodes;
    expect(String(image?.outputs?.imageUrl)).toMatch(/\/api\/media\/file\//);
    expect(String(upscale?.outputs?.videoUrl)).toMatch(/\/api\/media\/file\//);
    // Each step started after the one it waits for ended.
    expect(Date.parse(String(video?.startedAt))).toBeGreaterThanOrEqual(
      Date.parse(String(image?.completedAt)),
    );
    // The video step's job was given the image step's output.
    const job = await client.json<{ status: string }>("POST", "/api/queue/status", {
      requestId: video?.requestId,
    });
    expect(job.body.status).toBe("COMPLETED");
  });

  it("runs a cloud workflow with overrides: results land in the stored nodes, and the next save does not conflict", async () => {
    const created = await client.json<{ workflow: { id: string; updated_at: string } }>(
      "POST",
      "/api/workflows",
      { name: "Chain", data: chainWorkflow() },
    );
    expect(created.status).toBe(201);
    const { id, updated_at: basedOn } = created.body.workflow;
    const started = await client.json<RunAnswer>("POST", "/api/runs", {
      workflowId: id,
      basedOn,
      target: { upTo: "image" },
      inputs: { text: { text: "a harbour at dawn" } },
    });
    expect(started.status).toBe(202);
    const run = await waitForRun(client, started.body.run.id);
    expect(run.status).toBe("completed");
    expect(run.inputs).toEqual({ text: { text: "a harbour at dawn" } });
    expect(run.nodes.map((node) => node.id)).toEqual(["image"]);
    const imageUrl = run.nodes[0]?.outputs?.imageUrl;

    const opened = await client.json<Opened>("GET", `/api/workflows/${id}`);
    // A result is not an edit: the version saves are based on did not move.
    expect(opened.body.workflow.updated_at).toBe(basedOn);
    const image = opened.body.workflow.data.nodes.find((node) => node.id === "image");
    expect(image?.data.outputs?.imageUrl).toBe(imageUrl);
    expect(image?.data.status).toBe("complete");
    expect(image?.data.history).toHaveLength(1);

    // The editor saves its own (older) copy right after: no 409, and the result stays.
    const mine = chainWorkflow();
    (mine.nodes[2] as { data: Record<string, unknown> }).data.label = "renamed";
    const saved = await client.json<{ workflow: { updated_at: string } }>(
      "PUT",
      `/api/workflows/${id}`,
      { name: "Chain", basedOn, data: mine },
    );
    expect(saved.status).toBe(200);
    const after = await client.json<Opened>("GET", `/api/workflows/${id}`);
    const kept = after.body.workflow.data.nodes.find((node) => node.id === "image");
    expect(kept?.data.outputs?.imageUrl).toBe(imageUrl);

    // A second run of the same target: unchanged, so kept (no new job).
    const again = await client.json<RunAnswer>("POST", "/api/runs", {
      workflowId: id,
      target: { upTo: "image" },
      inputs: { text: { text: "a harbour at dawn" } },
    });
    const second = await waitForRun(client, again.body.run.id);
    expect(second.nodes[0]).toMatchObject({
      status: "skipped",
      note: "Unchanged since its last run: kept its result",
    });
    expect(second.nodes[0]?.outputs?.imageUrl).toBe(imageUrl);

    const history = await client.json<{ runs: RunView[]; nextCursor: string | null }>(
      "GET",
      `/api/workflows/${id}/runs?limit=1`,
    );
    expect(history.body.runs.map((entry) => entry.id)).toEqual([second.id]);
    const older = await client.json<{ runs: RunView[]; nextCursor: string | null }>(
      "GET",
      `/api/workflows/${id}/runs?limit=1&cursor=${encodeURIComponent(String(history.body.nextCursor))}`,
    );
    expect(older.body.runs.map((entry) => entry.id)).toEqual([run.id]);
    expect(older.body.nextCursor).toBeNull();
  });

  it("keeps a device-only node's result when nothing changed, whatever order its keys are in", async () => {
    const graph = chainGraph();
    const image = graph.nodes[1] as { data: { inputValues: Record<string, { value: unknown }> } };
    // jsonb stores keys sorted its own way: the signature must not depend on their order.
    image.data.inputValues = {
      numImages: { value: 1 },
      model: { value: "v1.1" },
      seed: { value: null },
    };
    const first = await client.json<RunAnswer>("POST", "/api/runs", {
      graph,
      target: { upTo: "image" },
    });
    const done = await waitForRun(client, first.body.run.id);
    // What the editor holds afterwards: the result, and the signature it computes itself.
    const nodes = graph.nodes.map((node) => ({ ...node, data: { ...node.data } })) as RunNode[];
    const step = done.nodes[0];
    const own = nodes.find((node) => node.id === "image") as RunNode;
    own.data = { ...own.data, status: "complete", outputs: step?.outputs ?? {} };
    own.data.runSignature = runSignatureOf(nodes, graph.edges, "image");
    const again = await client.json<RunAnswer>("POST", "/api/runs", {
      graph: { nodes, edges: graph.edges },
      target: { upTo: "image" },
    });
    const second = await waitForRun(client, again.body.run.id);
    expect(second.nodes[0]).toMatchObject({ status: "skipped", requestId: null });
  });

  it("refuses bad requests with core's message, and starts nothing", async () => {
    const graph = chainGraph();
    const before = (await client.json<{ runs: RunView[] }>("GET", "/api/runs")).body.runs.length;
    const cases: [unknown, string][] = [
      [{ graph, target: { upTo: "ghost" } }, "Unknown node: ghost"],
      [
        {
          graph: {
            ...graph,
            edges: [
              ...graph.edges,
              {
                id: "back",
                source: "upscale",
                sourceHandle: "video",
                target: "image",
                targetHandle: "image",
              },
            ],
          },
        },
        'Cannot run: the graph has a cycle ("image" → "video" → "upscale" → "image")',
      ],
      [
        { graph: { nodes: graph.nodes.slice(1, 2), edges: [] } },
        'Missing required input: Prompt of "image"',
      ],
      [
        { graph, inputs: { image: { numImages: "two" } } },
        'Invalid parameter numImages of "image": Expected a number',
      ],
      [
        {
          graph: {
            nodes: [...graph.nodes, { ...graph.nodes[1], id: "odd", type: "no-such-model" }],
            edges: graph.edges,
          },
        },
        "Unknown model: no-such-model",
      ],
      [{}, "A run needs a workflowId or a graph"],
    ];
    for (const [body, error] of cases) {
      const answer = await client.json("POST", "/api/runs", body);
      expect(answer, error).toMatchObject({ status: 400, body: { error } });
    }
    const queue = await client.json<{ runs: RunView[] }>("GET", "/api/runs");
    expect(queue.body.runs).toHaveLength(before);
  });

  it("answers another user's run and workflow runs as 404", async () => {
    const started = await client.json<RunAnswer>("POST", "/api/runs", { graph: chainGraph() });
    const id = started.body.run.id;
    await waitForRun(client, id);
    const stranger = new TestClient(server.url);
    await stranger.signUp("stranger-runs@example.com");
    for (const [method, path] of [
      ["GET", `/api/runs/${id}`],
      ["POST", `/api/runs/${id}/cancel`],
      ["POST", `/api/runs/${id}/retry`],
    ] as const) {
      const answer = await stranger.json(method, path, method === "POST" ? {} : undefined);
      expect(answer, path).toMatchObject({ status: 404, body: { error: "Run not found" } });
    }
    const created = await client.json<{ workflow: { id: string } }>("POST", "/api/workflows", {
      name: "Mine",
      data: chainWorkflow(),
    });
    const theirs = await stranger.json("GET", `/api/workflows/${created.body.workflow.id}/runs`);
    expect(theirs.status).toBe(404);
    const runTheirs = await stranger.json("POST", "/api/runs", {
      workflowId: created.body.workflow.id,
    });
    expect(runTheirs.status).toBe(404);
  });
});

describe("queue control", () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ LOCAL_PROVIDER_STEP_MS: "150" });
    await server.ctx.work({ concurrency: 4 });
    client = new TestClient(server.url);
    await client.signUp("queue-control@example.com");
  }, 60_000);
  afterAll(() => server.close());

  const start = async () =>
    (await client.json<RunAnswer>("POST", "/api/runs", { graph: chainGraph() })).body.run;
  const queue = async () =>
    (await client.json<{ paused: boolean; runs: RunView[] }>("GET", "/api/runs")).body;

  it("pauses (queued steps wait), moves a queued run up, resumes, and every run completes", async () => {
    expect(await client.json("PUT", "/api/queue/state", { paused: true })).toMatchObject({
      status: 200,
      body: { paused: true },
    });
    const first = await start();
    const second = await start();
    const paused = await queue();
    expect(paused.paused).toBe(true);
    expect(paused.runs.map((run) => run.id)).toEqual([first.id, second.id]);
    expect(paused.runs.every((run) => run.nodes.every((node) => node.status === "queued"))).toBe(
      true,
    );
    const moved = await client.json<{ runs: RunView[] }>("POST", `/api/runs/${second.id}/move`, {
      direction: "up",
    });
    expect(moved.body.runs.map((run) => run.id)).toEqual([second.id, first.id]);
    await client.json("PUT", "/api/queue/state", { paused: false });
    const [a, b] = await Promise.all([waitForRun(client, first.id), waitForRun(client, second.id)]);
    expect([a.status, b.status]).toEqual(["completed", "completed"]);
    // The run moved up started first.
    expect(Date.parse(String(b.startedAt))).toBeLessThanOrEqual(Date.parse(String(a.startedAt)));
  });

  it("cancels a run, retries its unfinished steps, and cancels all", async () => {
    const run = await start();
    const cancelled = await client.json<RunAnswer>("POST", `/api/runs/${run.id}/cancel`, {});
    expect(cancelled.body.run.status).toBe("cancelled");
    expect(cancelled.body.run.nodes.every((node) => node.status === "cancelled")).toBe(true);
    const retried = await client.json<RunAnswer>("POST", `/api/runs/${run.id}/retry`, {});
    expect(retried.status).toBe(202);
    const done = await waitForRun(client, run.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.every((node) => node.attempt === 1)).toBe(true);
    // A completed run is not retried.
    expect(await client.json("POST", `/api/runs/${run.id}/retry`, {})).toMatchObject({
      status: 409,
      body: { error: "Only a failed or cancelled run can be retried" },
    });

    const one = await start();
    const two = await start();
    const all = await client.json<{ cancelled: number }>("POST", "/api/runs/cancel-all", {});
    expect(all.body.cancelled).toBe(2);
    for (const id of [one.id, two.id]) {
      const read = await client.json<RunAnswer>("GET", `/api/runs/${id}`);
      expect(read.body.run.status).toBe("cancelled");
    }
    expect((await queue()).runs).toEqual([]);
  });
});
