import { openPage, resetCounters, settle } from "./browser.mjs";
import { signUp } from "./server.mjs";

/** Editor sessions for load/save figures: a signed-in page, and opening from the Library. */

/** A page signed in as a new user (cookie from the sign-up API), on the editor. */
export async function signedInPage(browser, server, prefix) {
  const { cookie } = await signUp(server.url, prefix);
  const opened = await openPage(browser);
  await opened.context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
    }),
  );
  await opened.page.goto(server.url);
  await opened.page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 60_000 });
  return { ...opened, cookie };
}

const median3 = (list) => [...list].sort((a, b) => a - b)[1];

/**
 * Reloads the editor on an empty canvas, opens workflow `name` from the Library and answers
 * the time from the click to interactive: nodes drawn, loading message gone, and the end of
 * the last long task before a 500 ms quiet period. `parseOf` also times JSON.parse of the
 * same bytes (GET /api/workflows/:id) in the same page; `chunk` a chunk-sized parse.
 */
export async function openWorkflow(page, name, { parseOf, chunk } = {}) {
  await page.evaluate(() => localStorage.removeItem("atelier.lastWorkflow"));
  await page.reload();
  await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 60_000 });
  await page.getByRole("tab", { name: "Library" }).click();
  const entry = page
    .getByRole("navigation", { name: "Library" })
    .getByRole("button", { name: new RegExp(`^${name}`) })
    .first();
  await entry.waitFor({ timeout: 30_000 });
  await settle(page, 500);
  await resetCounters(page);
  await page.evaluate(() => {
    const bench = window.__bench;
    bench.clickAt = null;
    bench.readyAt = null;
    document.addEventListener(
      "click",
      (event) => {
        bench.clickAt = event.timeStamp;
      },
      { capture: true, once: true },
    );
    const check = () => {
      const drawn = document.querySelector(".react-flow__node");
      if (bench.clickAt !== null && drawn && !document.querySelector(".load-progress")) {
        bench.readyAt = performance.now();
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await entry.click();
  await page.waitForFunction(() => window.__bench.readyAt !== null, null, { timeout: 120_000 });
  // The rest of the open (nodes and wires still being handed over, the device copy) runs
  // after the first nodes show: its long tasks count until 500 ms pass without one.
  // Long-task entries arrive in a later task than the task itself: the quiet period holds
  // only if no entry came in while 200 ms more passed.
  for (;;) {
    await page.waitForFunction(
      () => {
        const { readyAt, longTasks } = window.__bench;
        const last = longTasks.at(-1);
        const quietSince = Math.max(readyAt, last ? last.start + last.duration : 0);
        return performance.now() - quietSince >= 500;
      },
      null,
      { timeout: 60_000, polling: 50 },
    );
    const seen = await page.evaluate(() => window.__bench.longTasks.length);
    await page.waitForTimeout(200);
    if (seen === (await page.evaluate(() => window.__bench.longTasks.length))) break;
  }
  const timing = await page.evaluate(() => {
    const { clickAt, readyAt, longTasks } = window.__bench;
    const after = longTasks.filter((task) => task.start + task.duration >= clickAt);
    const lastEnd = Math.max(readyAt, ...after.map((task) => task.start + task.duration));
    return {
      openMs: lastEnd - clickAt,
      readyMs: readyAt - clickAt,
      longestTask: Math.max(0, ...after.map((task) => task.duration)),
      longTasks: after.length,
      drawn: document.querySelectorAll(".react-flow__node").length,
    };
  });
  if (parseOf) {
    const times = await page.evaluate(async (id) => {
      const fetchBegan = performance.now();
      const text = await (await fetch(`/api/workflows/${id}`)).text();
      const fetchMs = performance.now() - fetchBegan;
      const runs = [];
      for (let run = 0; run < 3; run++) {
        const began = performance.now();
        JSON.parse(text);
        runs.push(performance.now() - began);
      }
      return { runs, bytes: text.length, fetchMs, idbMs: await idbReadMs(text) };
      /** Reading the same text back from IndexedDB (a device copy), in a fresh transaction. */
      async function idbReadMs(value) {
        const done = (request) =>
          new Promise((resolve, reject) => {
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
        const opening = indexedDB.open("bench-floor", 1);
        opening.onupgradeneeded = () => opening.result.createObjectStore("texts");
        const db = await done(opening);
        await done(db.transaction("texts", "readwrite").objectStore("texts").put(value, "w"));
        const began = performance.now();
        await done(db.transaction("texts").objectStore("texts").get("w"));
        const readMs = performance.now() - began;
        db.close();
        await done(indexedDB.deleteDatabase("bench-floor"));
        return readMs;
      }
    }, parseOf);
    timing.parseMs = median3(times.runs);
    timing.parsedBytes = times.bytes;
    timing.fetchMs = times.fetchMs;
    timing.idbReadMs = times.idbMs;
  }
  if (chunk) {
    const runs = await page.evaluate((text) => {
      const list = [];
      for (let run = 0; run < 3; run++) {
        const began = performance.now();
        JSON.parse(text);
        list.push(performance.now() - began);
      }
      return list;
    }, chunk);
    timing.chunkParseMs = median3(runs);
  }
  return timing;
}
