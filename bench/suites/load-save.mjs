import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { launchBrowser, settle } from "../lib/browser.mjs";
import { openWorkflow, signedInPage } from "../lib/editor.mjs";
import { notMeasurable, row, withExtraCheck } from "../lib/report.mjs";
import { saveFloors } from "../lib/save-floor.mjs";
import { api, postgresAvailable, signUp, startServer } from "../lib/server.mjs";
import { interleave, median, ratios } from "../lib/stats.mjs";
import { chunkText, SIZES, sizedWorkflow } from "../lib/workflows.mjs";

/**
 * S1, S2, L1, L2: saving a 5 MB workflow to the server (PGlite, and PostgreSQL when it
 * answers) and opening 5 MB and 10 MB workflows in the editor.
 */

/**
 * The editor's save of a workflow over 2 MB (apps/web/…/batch-save.ts): node batches of 20,
 * 4 in flight (BATCHES_IN_FLIGHT), then one commit.
 */
async function batchedSave(server, cookie, id, name, data, basedOn) {
  const saveId = randomUUID();
  const batches = Math.max(1, Math.ceil(data.nodes.length / 20));
  let next = 0;
  const lane = async () => {
    while (next < batches) {
      const index = next++;
      const nodes = data.nodes.slice(index * 20, (index + 1) * 20);
      const path = `/api/workflows/${id}/saves/${saveId}/batches/${index}`;
      await api(server.url, cookie, "PUT", path, { nodes });
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, batches) }, lane));
  const body = { name, basedOn, batches, data: { ...data, nodes: [] } };
  return (
    await api(server.url, cookie, "POST", `/api/workflows/${id}/saves/${saveId}/commit`, body)
  ).workflow;
}

/** The workflow with every node moved `dx` to the right. */
const movedBy = (data, dx) => ({
  ...data,
  nodes: data.nodes.map((node) => ({
    ...node,
    position: { ...node.position, x: node.position.x + dx },
  })),
});

/** Baseline: the same bytes stringified, written and fsynced on the same disk. */
async function stringifyWriteFsync(dir, data) {
  const began = performance.now();
  const json = JSON.stringify(data);
  const file = await open(join(dir, "workflow.json"), "w");
  await file.writeFile(json);
  await file.sync();
  await file.close();
  return performance.now() - began;
}

async function s1(ctx, server, data, db) {
  const { cookie } = await signUp(server.url, "s1");
  const name = `bench-s1-${db}`;
  const created = await api(server.url, cookie, "POST", "/api/workflows", {
    name,
    data: { ...data, nodes: [], edges: [] },
  });
  const id = created.workflow.id;
  let basedOn = created.workflow.updated_at;
  const dir = mkdtempSync(join(tmpdir(), "atelier-bench-fsync-"));
  // Every save moves every node by a pixel (two versions in turn), so each one rewrites
  // every chunk: a re-save of identical content would write no chunk at all.
  const versions = [data, movedBy(data, 1)];
  let saves = 0;
  const save = async () => {
    const version = versions[saves++ % 2];
    const began = performance.now();
    basedOn = (await batchedSave(server, cookie, id, name, version, basedOn)).updated_at;
    return performance.now() - began;
  };
  // One save to warm the server's code paths; the row then holds 5 MB.
  await save();
  const { base, cand } = await interleave({
    rounds: ctx.rounds,
    baseline: () => stringifyWriteFsync(dir, data),
    candidates: { save },
  });
  // The one-request form (PUT with the whole document, moved again), for comparison.
  const put = performance.now();
  const answer = await api(server.url, cookie, "PUT", `/api/workflows/${id}`, {
    name,
    data: versions[saves % 2],
    basedOn,
  });
  const putMs = performance.now() - put;
  rmSync(dir, { recursive: true, force: true });
  const bytes = Buffer.byteLength(JSON.stringify(data));
  const floors = await saveFloors({ db, databaseUrl: server.databaseUrl, versions, rounds: 5 });
  const times = (ms) => `${Math.round(ms)} ms (${(ms / median(base)).toFixed(1)}×)`;
  return row({
    id: `S1/${db}`,
    measure: `save 5 MB (${db === "pglite" ? "PGlite" : "PostgreSQL"}) ÷ stringify+write+fsync`,
    values: ratios(cand.save, base),
    target: { op: "<=", value: db === "pglite" ? 3 : 2 },
    note: `${Math.round(median(cand.save))} ms vs ${Math.round(median(base))} ms (${(bytes / 1048576).toFixed(1)} MiB, ${Math.ceil(data.nodes.length / 20)} batches, 4 in flight, + commit as the editor sends it; one PUT: ${Math.round(putMs)} ms, answer ${(JSON.stringify(answer).length / 1048576).toFixed(1)} MiB); floors: the database rewriting its chunk rows alone ${times(floors.dbWriteMs)}, JSON.parse of its bytes alone ${times(floors.parseMs)}`,
    details: { saveMs: cand.save, baselineMs: base, putMs, bytes, floors },
  });
}

/** Chunk rows of a workflow in PostgreSQL: index → row version (xmin) and content hash. */
async function chunkRows(databaseUrl, id) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select chunk_index, xmin::text as version, md5(data) as hash, size_bytes from workflow_chunks where workflow_id = $1",
      [id],
    );
    return new Map(rows.map((entry) => [entry.chunk_index, entry]));
  } finally {
    await client.end();
  }
}

/** S2: open a 5 MB workflow in the editor, edit one prompt, save; what was rewritten/sent. */
async function s2(ctx, server, data) {
  const session = await signedInPage(ctx.browser, server, "s2");
  const { page } = session;
  const name = "bench-s2";
  const created = await api(server.url, session.cookie, "POST", "/api/workflows", { name, data });
  const id = created.workflow.id;
  await openWorkflow(page, name);
  // The nodes in view settle first: a result viewer that loads (or fails) changes its
  // node's measured height, which the first save would otherwise catch half-way and the
  // second rewrite. Settled = no node changed size for 1 s.
  await page.waitForFunction(
    () => {
      const sizes = [...document.querySelectorAll(".react-flow__node")]
        .map((node) => `${node.getAttribute("data-id")}:${node.getBoundingClientRect().height}`)
        .join();
      const bench = window.__bench;
      if (bench.sizes !== sizes) {
        bench.sizes = sizes;
        bench.sizesSince = performance.now();
      }
      return performance.now() - bench.sizesSince > 1000;
    },
    null,
    { timeout: 30_000, polling: 200 },
  );
  await settle(page, 500);
  // A first save from the editor, so the stored form is the editor's own (not the API's).
  const saved = page.getByRole("status").filter({ hasText: /^Saved$/ });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await saved.waitFor({ timeout: 60_000 });
  await saved.waitFor({ state: "hidden", timeout: 10_000 });
  const before = server.databaseUrl ? await chunkRows(server.databaseUrl, id) : null;
  // Zoom in on one node until it shows its form, then type into its prompt.
  const node = page.locator(".react-flow__node").first();
  const box = await node.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (
    let step = 0;
    step < 20 && (await page.locator(".react-flow__node textarea").count()) === 0;
    step++
  ) {
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(150);
  }
  const prompt = page.locator(".react-flow__node textarea").first();
  await prompt.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" edited");
  const sent = [];
  const onRequest = (request) => {
    if (request.url().includes("/api/workflows") && request.method() !== "GET")
      sent.push(request.postDataBuffer()?.length ?? 0);
  };
  page.on("request", onRequest);
  await page.keyboard.press("Control+s");
  await saved.waitFor({ timeout: 60_000 });
  page.off("request", onRequest);
  const bytesSent = sent.reduce((sum, size) => sum + size, 0);
  const sentText = `${(bytesSent / 1024).toFixed(0)} KB sent in ${sent.length} requests (stretch ≤ 16 KB)`;
  await session.close();
  if (!before) {
    return notMeasurable(
      "S2",
      "chunks rewritten after editing one prompt, 5 MB",
      "≤ 1",
      `PostgreSQL not reachable; PGlite's chunk rows cannot be read from outside the server (${sentText})`,
    );
  }
  const after = await chunkRows(server.databaseUrl, id);
  let rewritten = 0;
  let rewrittenBytes = 0;
  let changed = 0;
  for (const [index, entry] of after) {
    const old = before.get(index);
    if (!old || old.version !== entry.version) {
      rewritten++;
      rewrittenBytes += entry.size_bytes;
    }
    if (!old || old.hash !== entry.hash) changed++;
  }
  return row({
    id: "S2",
    measure: "chunks rewritten after editing one prompt, 5 MB",
    values: [rewritten],
    target: { op: "<=", value: 1 },
    unit: "",
    note: `rewrote ${rewritten} of ${after.size} chunks (${(rewrittenBytes / 1048576).toFixed(1)} MiB; content changed in ${changed}); ${sentText}`,
    details: { chunks: after.size, rewritten, changed, rewrittenBytes, bytesSent, requests: sent },
  });
}

/** L1 and L2: open (Library click → interactive) of 5 MB and 10 MB, against JSON.parse. */
async function l1l2(ctx, server, five, ten) {
  const session = await signedInPage(ctx.browser, server, "l1");
  const ids = {};
  for (const [label, data] of [
    ["5", five],
    ["10", ten],
  ]) {
    const answer = await api(server.url, session.cookie, "POST", "/api/workflows", {
      name: `bench-open-${label}mb`,
      data,
    });
    ids[label] = answer.workflow.id;
  }
  const chunk = chunkText(ten, 2 * 1024 * 1024);
  const opens = { 5: [], 10: [] };
  const { base, cand } = await interleave({
    rounds: ctx.rounds,
    baseline: async () => {
      const result = await openWorkflow(session.page, "bench-open-5mb", { parseOf: ids[5], chunk });
      opens[5].push(result);
      return result.parseMs;
    },
    candidates: {
      five: async () => opens[5].at(-1).openMs,
      ten: async () => {
        const result = await openWorkflow(session.page, "bench-open-10mb", { chunk });
        opens[10].push(result);
        return result.openMs;
      },
    },
    onRound: (round) => ctx.log(`L1/L2 round ${round + 1}/${ctx.rounds}`),
  });
  await session.close();
  const chunkParse = median(opens[5].map((result) => result.chunkParseMs));
  // What an open costs before any of its own work, against the same parse.
  const floor = (key) => {
    const ms = median(opens[5].map((result) => result[key]));
    return `${Math.round(ms)} ms (${(ms / median(base)).toFixed(1)}× parse)`;
  };
  const longest = Math.max(...opens[10].map((result) => result.longestTask));
  const l1 = row({
    id: "L1",
    measure: "open 5 MB workflow to interactive ÷ JSON.parse",
    values: ratios(cand.five, base),
    target: { op: "<=", value: 3 },
    note: `${Math.round(median(cand.five))} ms vs parse ${Math.round(median(base))} ms; longest task ${Math.round(Math.max(...opens[5].map((r) => r.longestTask)))} ms; floors: fetching the answer alone ${floor("fetchMs")}, reading it back from IndexedDB alone ${floor("idbReadMs")}`,
    details: { opens: opens[5] },
  });
  const l2 = withExtraCheck(
    row({
      id: "L2",
      measure: "open 10 MB ÷ open 5 MB; longest task ≤ 3 × parse of 2 MB",
      values: ratios(cand.ten, cand.five),
      target: { op: "<=", value: 2.1 },
      note: `${Math.round(median(cand.ten))} vs ${Math.round(median(cand.five))} ms (bytes ×${(SIZES["10 MB"] / SIZES["5 MB"]).toFixed(2)}); longest task ${Math.round(longest)} ms vs limit ${Math.round(3 * chunkParse)} ms`,
      details: { opens: opens[10], chunkParseMs: chunkParse },
    }),
    longest <= 3 * chunkParse,
    "long task over the limit",
  );
  return [l1, l2];
}

export async function runLoadSave(ctx) {
  const rows = [];
  const five = await sizedWorkflow(SIZES["5 MB"], "bench 5 MB");
  const ten =
    ctx.wanted("L2") || ctx.wanted("L1")
      ? await sizedWorkflow(SIZES["10 MB"], "bench 10 MB")
      : null;
  const needBrowser = ["S2", "L1", "L2"].some(ctx.wanted);
  const browser = needBrowser ? await launchBrowser() : null;
  const local = { ...ctx, browser };
  const hasPostgres = !ctx.quick && (await postgresAvailable());
  try {
    const lite = await startServer({ webRoot: ctx.webRoot });
    try {
      if (ctx.wanted("S1")) {
        ctx.log("S1 (PGlite)…");
        rows.push(
          ...(await ctx.guard("S1", async () => [await s1(local, lite, five, "pglite")], local, [
            "S1/pglite",
          ])),
        );
      }
      if (ctx.wanted("L1") || ctx.wanted("L2")) {
        ctx.log("L1/L2…");
        const pair = await ctx.guard("L", () => l1l2(local, lite, five, ten), local, ["L1", "L2"]);
        rows.push(...pair.filter((entry) => ctx.wanted(entry.id.slice(0, 2))));
      }
    } finally {
      await lite.stop();
    }
    const wantPg = (ctx.wanted("S1") && !ctx.quick) || ctx.wanted("S2");
    if (wantPg && !hasPostgres) {
      if (ctx.wanted("S1") && !ctx.quick)
        rows.push(
          notMeasurable(
            "S1/postgres",
            "save 5 MB (PostgreSQL) ÷ stringify+write+fsync",
            "≤ 2",
            "PostgreSQL not reachable (set TEST_DATABASE_URL)",
          ),
        );
    }
    if (wantPg && (hasPostgres || ctx.wanted("S2"))) {
      const server = await startServer({
        webRoot: ctx.webRoot,
        db: hasPostgres ? "postgres" : "pglite",
      });
      try {
        if (ctx.wanted("S1") && !ctx.quick && hasPostgres) {
          ctx.log("S1 (PostgreSQL)…");
          const step = async () => [await s1(local, server, five, "postgres")];
          rows.push(...(await ctx.guard("S1", step, local, ["S1/postgres"])));
        }
        if (ctx.wanted("S2")) {
          ctx.log("S2…");
          rows.push(...(await ctx.guard("S2", async () => [await s2(local, server, five)], local)));
        }
      } finally {
        await server.stop();
      }
    }
  } finally {
    await browser?.close();
  }
  return rows;
}
