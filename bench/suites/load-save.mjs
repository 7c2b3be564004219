import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { launchBrowser, settle } from "../lib/browser.mjs";
import {
  editAndSave,
  firstPrompt,
  openWorkflow,
  signedInPage,
  waitForDeviceCopy,
} from "../lib/editor.mjs";
import { notMeasurable, row, withExtraCheck } from "../lib/report.mjs";
import { saveFloor } from "../lib/save-floor.mjs";
import { api, postgresAvailable, signUp, startServer } from "../lib/server.mjs";
import { interleave, median, ratios } from "../lib/stats.mjs";
import { SIZES, sizedWorkflow } from "../lib/workflows.mjs";

/**
 * S1, S2, S3, L1, L2: saving a 5 MB workflow to the server (PGlite, and PostgreSQL when it
 * answers), saving one-prompt edits from the editor, and opening 5 MB and 10 MB workflows in
 * the editor, from the server and from the device copy.
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
  // The floor (the same chunk rows rewritten by the database alone + one parse) is measured
  // in the same rounds as the saves; the old baseline (stringify + write + fsync) too.
  const floor = await saveFloor({ db, databaseUrl: server.databaseUrl, versions });
  const floors = [];
  let measured;
  try {
    measured = await interleave({
      rounds: ctx.rounds,
      baseline: async () => {
        const parts = await floor.measure();
        floors.push(parts);
        return parts.ms;
      },
      candidates: { save, fsync: () => stringifyWriteFsync(dir, data) },
    });
  } finally {
    await floor.close();
  }
  const { base, cand } = measured;
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
  const dbWriteMs = median(floors.map((parts) => parts.dbWriteMs));
  const parseMs = median(floors.map((parts) => parts.parseMs));
  const fsyncMs = median(cand.fsync);
  const saveMs = median(cand.save);
  return row({
    id: `S1/${db}`,
    measure: `save 5 MB (${db === "pglite" ? "PGlite" : "PostgreSQL"}) ÷ its floor (chunk rows rewritten + parse)`,
    values: ratios(cand.save, base),
    target: { op: "<=", value: 2 },
    note: `${Math.round(saveMs)} ms vs floor ${Math.round(median(base))} ms (the database rewriting its chunk rows alone ${Math.round(dbWriteMs)} ms + JSON.parse of its bytes ${Math.round(parseMs)} ms); ${(bytes / 1048576).toFixed(1)} MiB, ${Math.ceil(data.nodes.length / 20)} batches, 4 in flight, + commit as the editor sends it; one PUT: ${Math.round(putMs)} ms (${(putMs / median(base)).toFixed(1)}× floor), answer ${(JSON.stringify(answer).length / 1024).toFixed(1)} KiB; stringify+write+fsync ${Math.round(fsyncMs)} ms (save ${(saveMs / fsyncMs).toFixed(1)}× it)`,
    details: {
      saveMs: cand.save,
      floorMs: base,
      floors,
      stringifyWriteFsyncMs: cand.fsync,
      putMs,
      bytes,
    },
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
  const prompt = await firstPrompt(page);
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

/**
 * A warm open: the server's answer fails (as offline) once the device copy is there, so the
 * nodes drawn come from it (openWorkflow checks that the open asked the server).
 */
async function warmOpen(page, name, id) {
  await waitForDeviceCopy(page, id);
  return openWorkflow(page, name, { fromDevice: id });
}

/** No task of a warm open may reach this (L2). */
const WARM_TASK_LIMIT_MS = 50;

/**
 * L1 and L2: opens (Library click → interactive) of 5 MB and 10 MB, cold (from the server)
 * and warm (from the device copy, the server not answering), against their floors in the
 * same page: fetch + JSON.parse, and IndexedDB read + JSON.parse.
 */
async function l1l2(ctx, server, five, ten) {
  const session = await signedInPage(ctx.browser, server, "l1");
  const { page } = session;
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
  const opens = { 5: [], 10: [], warm5: [], warm10: [] };
  let warmTenFailed = null;
  const { base, cand } = await interleave({
    rounds: ctx.rounds,
    // Cold 5 MB, with its floors measured in the same page afterwards.
    baseline: async () => {
      const result = await openWorkflow(page, "bench-open-5mb", { parseOf: ids[5] });
      opens[5].push(result);
      return result.fetchMs + result.parseMs;
    },
    candidates: {
      five: async () => opens[5].at(-1).openMs,
      warmFive: async () => {
        const result = await warmOpen(page, "bench-open-5mb", ids[5]);
        opens.warm5.push(result);
        return result.openMs;
      },
      ten: async () => {
        const result = await openWorkflow(page, "bench-open-10mb");
        opens[10].push(result);
        return result.openMs;
      },
      // A warm 10 MB open that breaks fails L2's check, not L1's rows with it.
      warmTen: async () => {
        try {
          const result = await warmOpen(page, "bench-open-10mb", ids[10]);
          opens.warm10.push(result);
          return result.openMs;
        } catch (error) {
          warmTenFailed ??= String(error?.message ?? error).split("\n")[0];
          opens.warm10.push({ longestTask: Number.POSITIVE_INFINITY, openMs: Number.NaN });
          return Number.NaN;
        }
      },
    },
    onRound: (round) => ctx.log(`L1/L2 round ${round + 1}/${ctx.rounds}`),
  });
  await session.close();
  const med = (list, key) => median(list.map((result) => result[key]));
  const ms = (value) => `${Math.round(value)} ms`;
  const longestOf = (list) => Math.max(...list.map((result) => result.longestTask));
  const warmFloors = opens[5].map((result) => result.idbReadMs + result.parseMs);
  const l1 = row({
    id: "L1",
    measure: "open 5 MB workflow to interactive ÷ (fetch + JSON.parse)",
    values: ratios(cand.five, base),
    target: { op: "<=", value: 2 },
    note: `${ms(median(cand.five))} vs floor ${ms(median(base))} (fetching the answer alone ${ms(med(opens[5], "fetchMs"))} + JSON.parse ${ms(med(opens[5], "parseMs"))}, ${(opens[5][0].parsedBytes / 1048576).toFixed(1)} MiB); first nodes drawn at ${ms(med(opens[5], "readyMs"))}; longest task ${ms(longestOf(opens[5]))}; ${(median(cand.five) / med(opens[5], "parseMs")).toFixed(1)}× the parse alone`,
    details: { opens: opens[5], floorMs: base },
  });
  const warm = row({
    id: "L1/warm",
    measure: "warm open from the device copy ÷ (IndexedDB read + parse)",
    values: ratios(cand.warmFive, warmFloors),
    target: { op: "<=", value: 2 },
    note: `${ms(median(cand.warmFive))} vs floor ${ms(median(warmFloors))} (reading the text back from IndexedDB alone ${ms(med(opens[5], "idbReadMs"))} + JSON.parse ${ms(med(opens[5], "parseMs"))}); first nodes drawn at ${ms(med(opens.warm5, "readyMs"))}; longest task ${ms(longestOf(opens.warm5))}; the server's GET fails (as offline), so the editor opens the copy it keeps on this device`,
    details: { opens: opens.warm5, floorMs: warmFloors },
  });
  const longest = Math.max(longestOf(opens.warm5), longestOf(opens.warm10));
  const l2 = withExtraCheck(
    row({
      id: "L2",
      measure: "open 10 MB ÷ open 5 MB; no task ≥ 50 ms in a warm open",
      values: ratios(cand.ten, cand.five),
      target: { op: "<=", value: 2.1 },
      note: `${Math.round(median(cand.ten))} vs ${Math.round(median(cand.five))} ms (bytes ×${(SIZES["10 MB"] / SIZES["5 MB"]).toFixed(2)}); warm opens ${ms(median(cand.warmTen.filter(Number.isFinite)))} vs ${ms(median(cand.warmFive))} (×${(median(cand.warmTen.filter(Number.isFinite)) / median(cand.warmFive)).toFixed(2)}), their longest task ${ms(longest)} (5 MB ${ms(longestOf(opens.warm5))}, 10 MB ${ms(longestOf(opens.warm10))}; limit < ${WARM_TASK_LIMIT_MS} ms); cold opens' longest task ${ms(longestOf(opens[10]))} (10 MB)`,
      details: { opens: opens[10], warmOpens: opens.warm10 },
    }),
    longest < WARM_TASK_LIMIT_MS,
    warmTenFailed
      ? `a warm 10 MB open failed: ${warmTenFailed}`
      : `a warm open had a task of ${Math.round(longest)} ms`,
  );
  return [l1, warm, l2];
}

/** Opens workflow `id` in a page of its own, ready for one-prompt edits (S3). */
async function editorOn(ctx, server, name) {
  const session = await signedInPage(ctx.browser, server, "s3");
  const created = await api(server.url, session.cookie, "POST", "/api/workflows", {
    name,
    data: ctx.data,
  });
  await openWorkflow(session.page, name);
  const prompt = await firstPrompt(session.page);
  // The first save after an open sends the whole workflow (the editor has no saved form to
  // compare with yet): timed, then every later save is the one measured.
  const first = await editAndSave(session.page, prompt);
  return { ...session, id: created.workflow.id, prompt, first };
}

/**
 * S3: save latency after a one-prompt edit, 5 MB ÷ 50 KB — as the editor does it: a word
 * typed into a node's prompt, Ctrl+S, until the editor shows "Saved". One page per workflow,
 * the rounds interleaved.
 */
async function s3(ctx, server, five, small) {
  const big = await editorOn({ ...ctx, data: five }, server, "bench-s3-5mb");
  let little;
  try {
    little = await editorOn({ ...ctx, data: small }, server, "bench-s3-50kb");
    const saves = { 5: [], small: [] };
    const { base, cand } = await interleave({
      rounds: ctx.rounds,
      baseline: async () => {
        const result = await editAndSave(little.page, little.prompt);
        saves.small.push(result);
        return result.savedMs;
      },
      candidates: {
        five: async () => {
          const result = await editAndSave(big.page, big.prompt);
          saves[5].push(result);
          return result.savedMs;
        },
      },
      onRound: (round) => ctx.log(`S3 round ${round + 1}/${ctx.rounds}`),
    });
    const med = (list, key) => Math.round(median(list.map((result) => result[key])));
    const sent = (list) =>
      list
        .at(-1)
        .requests.map((request) => `${request.method} ${(request.bytes / 1024).toFixed(1)} KB`)
        .join(", ");
    return row({
      id: "S3",
      measure: "save after a one-prompt edit, 5 MB ÷ 50 KB workflow",
      values: ratios(cand.five, base),
      target: { op: "<=", value: 1.5 },
      note: `edit → "Saved" ${med(saves[5], "savedMs")} vs ${med(saves.small, "savedMs")} ms (typing ${med(saves[5], "typingMs")} vs ${med(saves.small, "typingMs")} ms; Ctrl+S → "Saved" ${med(saves[5], "keyToSaveMs")} vs ${med(saves.small, "keyToSaveMs")} ms; edit → last save request done ${med(saves[5], "requestMs")} vs ${med(saves.small, "requestMs")} ms); sent: ${sent(saves[5])} vs ${sent(saves.small)}; the first save after opening (whole workflow) ${Math.round(big.first.savedMs)} vs ${Math.round(little.first.savedMs)} ms`,
      details: {
        saves5: saves[5],
        saves50k: saves.small,
        firstSave: { five: big.first, small: little.first },
      },
    });
  } finally {
    await big.close();
    await little?.close();
  }
}

export async function runLoadSave(ctx) {
  const rows = [];
  const five = await sizedWorkflow(SIZES["5 MB"], "bench 5 MB");
  const ten =
    ctx.wanted("L2") || ctx.wanted("L1")
      ? await sizedWorkflow(SIZES["10 MB"], "bench 10 MB")
      : null;
  const small = ctx.wanted("S3") ? await sizedWorkflow(50 * 1024, "bench 50 KB") : null;
  const needBrowser = ["S2", "S3", "L1", "L2"].some(ctx.wanted);
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
        const ids = ["L1", "L1/warm", "L2"];
        const opens = await ctx.guard("L", () => l1l2(local, lite, five, ten), local, ids);
        rows.push(...opens.filter((entry) => ctx.wanted(entry.id.slice(0, 2))));
      }
      if (ctx.wanted("S3")) {
        ctx.log("S3…");
        rows.push(
          ...(await ctx.guard("S3", async () => [await s3(local, lite, five, small)], local)),
        );
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
            "save 5 MB (PostgreSQL) ÷ its floor (chunk rows rewritten + parse)",
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
