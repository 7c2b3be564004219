// The HTTP half of scripts/container-check: against a running Atelier container, waits for
// /api/health, signs up and in, creates and saves a workflow, runs it on the offline local
// provider and reads its result back. One PASS/FAIL line per step; exit 1 on the first FAIL.
//
//   node scripts/container-smoke.mjs http://127.0.0.1:3000
//
// Needs only Node 20+ (fetch); no packages, so it also runs inside the image under check.

const base = (process.argv[2] ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const healthTimeoutMs = Number(process.env.SMOKE_HEALTH_TIMEOUT_MS ?? 180_000);
const runTimeoutMs = Number(process.env.SMOKE_RUN_TIMEOUT_MS ?? 120_000);

const cookies = new Map();

function remember(response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const index = pair.indexOf("=");
    if (index < 0) continue;
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    if (value === "" || /max-age=0/i.test(line)) cookies.delete(name);
    else cookies.set(name, value);
  }
}

/** A request like the web app's own page makes: cookies kept, Origin on every change. */
async function call(method, path, body) {
  const headers = { accept: "application/json" };
  if (method !== "GET") headers.origin = base;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (cookies.size)
    headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const response = await fetch(new URL(path, `${base}/`), {
    method,
    headers,
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  remember(response);
  return response;
}

async function json(method, path, body, expected = 200) {
  const response = await call(method, path, body);
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function step(name, action) {
  const started = performance.now();
  try {
    const detail = await action();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`PASS ${name} (${seconds}s)${detail ? ` — ${detail}` : ""}`);
  } catch (error) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`FAIL ${name} (${seconds}s) — ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}

/** text → flux-pro: the image node runs on the offline `local` provider (no API key set). */
function workflow(name, prompt) {
  return {
    version: "1.0.0",
    timestamp: Date.now(),
    nodes: [
      node("text", "text", 0, { text: { value: prompt } }),
      node("image", "flux-pro", 400, { numImages: { value: 1 } }),
    ],
    edges: [
      {
        id: "text-image",
        source: "text",
        target: "image",
        sourceHandle: "text",
        targetHandle: "prompt",
        type: "default",
        animated: false,
        style: {},
        data: { dataType: "text" },
      },
    ],
    metadata: {
      name,
      modified: new Date().toISOString(),
      stats: { nodeCount: 2, edgeCount: 1, nodeTypes: ["flux-pro", "text"] },
    },
  };
}

function node(id, type, x, inputValues) {
  return {
    id,
    type,
    position: { x, y: 0 },
    data: { label: id, inputValues },
    width: null,
    height: null,
    parentId: null,
    extent: null,
    expandParent: false,
    style: {},
    selected: false,
    dragging: false,
  };
}

const email = `check-${Date.now()}@example.com`;
const password = "correct horse battery staple";
let workflowId;
let updatedAt;
let run;

await step("GET /api/health answers 200", async () => {
  const deadline = Date.now() + healthTimeoutMs;
  let last = "no answer";
  for (;;) {
    try {
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) });
      const text = await response.text();
      if (response.status === 200) return text.slice(0, 200);
      last = `${response.status} ${text.slice(0, 200)}`;
    } catch (error) {
      last = error instanceof Error ? (error.cause?.code ?? error.message) : String(error);
    }
    if (Date.now() > deadline) throw new Error(`not healthy after ${healthTimeoutMs} ms: ${last}`);
    await sleep(1_000);
  }
});

await step("web app shell served at /", async () => {
  const response = await call("GET", "/");
  const text = await response.text();
  if (response.status !== 200 || !/<div id="root"|<script/i.test(text))
    throw new Error(`GET /: ${response.status} ${text.slice(0, 200)}`);
  return `${text.length} bytes of HTML`;
});

await step("sign up and sign in (email + password)", async () => {
  await json("POST", "/api/auth/sign-up/email", { email, password, name: "Container check" });
  await json("POST", "/api/auth/sign-in/email", { email, password });
  const session = await json("GET", "/api/auth/get-session");
  if (session?.user?.email !== email) throw new Error(`session is ${JSON.stringify(session)}`);
  return email;
});

await step("create and save a workflow", async () => {
  const created = await json(
    "POST",
    "/api/workflows",
    { name: "Container check", data: workflow("Container check", "a lighthouse at dusk") },
    201,
  );
  workflowId = created.workflow.id;
  const saved = await json("PUT", `/api/workflows/${workflowId}`, {
    name: "Container check, saved",
    data: workflow("Container check, saved", "a harbour at dawn"),
    basedOn: created.workflow.updated_at,
  });
  updatedAt = saved.workflow.updated_at;
  const opened = await json("GET", `/api/workflows/${workflowId}`);
  const prompt = opened.workflow.data?.nodes?.[0]?.data?.inputValues?.text?.value;
  if (opened.workflow.name !== "Container check, saved" || prompt !== "a harbour at dawn")
    throw new Error(`reopened as ${opened.workflow.name} with prompt ${prompt}`);
  return `${workflowId} saved at ${updatedAt}`;
});

await step("run it on the local provider until completed", async () => {
  const started = await json("POST", "/api/runs", { workflowId, target: { all: true } }, 202);
  const id = started.run.id;
  const deadline = Date.now() + runTimeoutMs;
  for (;;) {
    run = (await json("GET", `/api/runs/${id}`)).run;
    if (["completed", "failed", "cancelled"].includes(run.status)) break;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status}`);
    await sleep(500);
  }
  const steps = run.nodes.map((item) => `${item.id}: ${item.status}`).join(", ");
  if (run.status !== "completed")
    throw new Error(`run ${id} ${run.status} (${steps}) ${JSON.stringify(run.nodes)}`);
  return `run ${id} (${steps})`;
});

await step("the result is a real PNG in storage", async () => {
  const image = run.nodes.find((item) => item.id === "image");
  const urls = JSON.stringify(image?.outputs ?? {}).match(/"(\/api\/media\/[^"]+|https?:[^"]+)"/);
  if (!urls) throw new Error(`no file among the outputs ${JSON.stringify(image?.outputs)}`);
  const response = await call("GET", urls[1]);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${urls[1]}: ${response.status}`);
  if (!bytes.subarray(0, 8).equals(Buffer.from("89504e470d0a1a0a", "hex")))
    throw new Error(`GET ${urls[1]}: not a PNG (${bytes.subarray(0, 8).toString("hex")})`);
  return `${urls[1]}, ${bytes.length} bytes`;
});
