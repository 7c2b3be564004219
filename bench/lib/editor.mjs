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
  await signedIn(opened.page);
  return { ...opened, cookie };
}

/** Waits for the signed-in top bar: the account menu's button ("Sign out" is inside it). */
export const signedIn = (page) =>
  page.getByRole("button", { name: /^Account: / }).waitFor({ timeout: 60_000 });

const median3 = (list) => [...list].sort((a, b) => a - b)[1];

/**
 * Loads the editor on an empty canvas (/), opens workflow `name` from the Library and answers
 * the time from the click to interactive: nodes drawn, loading message gone, and the end of
 * the last long task before a 500 ms quiet period. `parseOf` also times, in the same page,
 * fetching the same bytes (GET /api/workflows/:id), JSON.parse of them and reading them back
 * from IndexedDB (medians of 3 each); `chunk` a chunk-sized parse. `fromDevice` (the
 * workflow's id) makes it a warm open: the server does not answer that GET (the request
 * fails, as offline), so the editor opens the copy it keeps on this device.
 */
export async function openWorkflow(page, name, { parseOf, chunk, fromDevice } = {}) {
  await page.evaluate(() => localStorage.removeItem("atelier.lastWorkflow"));
  const unanswered = fromDevice && `**/api/workflows/${fromDevice}`;
  let refused = 0;
  const refuse = (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    refused++;
    return route.abort("internetdisconnected");
  };
  if (unanswered) await page.route(unanswered, refuse);
  try {
    const timing = await openTimed(page, name, { parseOf, chunk });
    if (unanswered && refused === 0)
      throw new Error(`the warm open of ${name} did not ask the server (no device copy read)`);
    return unanswered ? { ...timing, refused } : timing;
  } finally {
    if (unanswered) await page.unroute(unanswered, refuse);
  }
}

/**
 * Waits until this page's IndexedDB holds the device copy of workflow `id` (written when
 * the browser is idle after a cloud open).
 */
export async function waitForDeviceCopy(page, id, timeout = 30_000) {
  await page.waitForFunction(
    (key) =>
      new Promise((resolve) => {
        const opening = indexedDB.open("atelier");
        opening.onerror = () => resolve(false);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains("workflows")) {
            db.close();
            return resolve(false);
          }
          const get = db.transaction("workflows").objectStore("workflows").get(key);
          get.onsuccess = () => {
            db.close();
            resolve(Boolean(get.result?.blob ?? get.result?.text ?? get.result?.data));
          };
          get.onerror = () => {
            db.close();
            resolve(false);
          };
        };
      }),
    id,
    { timeout, polling: 250 },
  );
}

let profiled = 0;

/**
 * With BENCH_PROFILE_DIR set, a CPU profile of each open (CDP Profiler, 200 µs samples) is
 * written there as `open-N-<name>.cpuprofile`, and of each of S3's edits and saves as
 * `save-N-<page title>.cpuprofile`: the bench build has source maps, so DevTools
 * or `bench/lib/profile-summary.mjs` name the product's functions in it.
 */
async function startProfile(page, kind = "open") {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return { stop: async () => {} };
  if (process.env.BENCH_TRACE) return startTrace(page, dir, kind);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  return {
    stop: async (name) => {
      const { profile } = await cdp.send("Profiler.stop");
      const { mkdir, writeFile } = await import("node:fs/promises");
      await mkdir(dir, { recursive: true });
      const file = `${dir}/${kind}-${++profiled}-${name.replace(/[^\w.-]+/g, "_")}.cpuprofile`;
      await writeFile(file, JSON.stringify(profile));
      await cdp.detach();
    },
  };
}

/**
 * With BENCH_TRACE=1 as well, a Chromium trace instead (`open-N-<name>.json`, DevTools'
 * timeline categories): every task with its duration, and the scripts, layouts and paints
 * inside it, which a CPU profile cannot split into tasks.
 */
async function startTrace(page, dir, kind) {
  const browser = page.context().browser();
  await browser.startTracing(page, {
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink"],
  });
  return {
    stop: async (name) => {
      const trace = await browser.stopTracing();
      const { mkdir, writeFile } = await import("node:fs/promises");
      await mkdir(dir, { recursive: true });
      await writeFile(`${dir}/${kind}-${++profiled}-${name.replace(/[^\w.-]+/g, "_")}.json`, trace);
    },
  };
}

async function openTimed(page, name, { parseOf, chunk }) {
  // The address names the open workflow (/w/:id) and a reload would open it again: the
  // editor's own address, /, is an empty canvas.
  await page.goto(new URL("/", page.url()).href);
  await signedIn(page);
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
    // An open that fails says so in an error toast: the open ends there, with its message.
    bench.openError = null;
    const toasts = new MutationObserver(() => {
      const error = document.querySelector('[data-sonner-toast][data-type="error"]');
      if (!error) return;
      bench.openError = error.textContent;
      toasts.disconnect();
    });
    toasts.observe(document.body, { childList: true, subtree: true });
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
  const profile = await startProfile(page);
  await entry.click();
  await page.waitForFunction(
    () => window.__bench.readyAt !== null || window.__bench.openError !== null,
    null,
    { timeout: 120_000 },
  );
  const failed = await page.evaluate(() =>
    window.__bench.readyAt === null ? window.__bench.openError : null,
  );
  if (failed !== null) {
    await profile.stop(name);
    throw new Error(`the open of ${name} failed: "${failed}"`);
  }
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
  await profile.stop(name);
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
      const fetches = [];
      let text = "";
      for (let run = 0; run < 3; run++) {
        const began = performance.now();
        text = await (await fetch(`/api/workflows/${id}`)).text();
        fetches.push(performance.now() - began);
      }
      const runs = [];
      for (let run = 0; run < 3; run++) {
        const began = performance.now();
        JSON.parse(text);
        runs.push(performance.now() - began);
      }
      return { runs, bytes: text.length, fetches, idbReads: await idbReadMs(text) };
      /** Reading the same text back from IndexedDB (a device copy), each in a fresh transaction. */
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
        const reads = [];
        for (let run = 0; run < 3; run++) {
          const began = performance.now();
          await done(db.transaction("texts").objectStore("texts").get("w"));
          reads.push(performance.now() - began);
        }
        db.close();
        await done(indexedDB.deleteDatabase("bench-floor"));
        return reads;
      }
    }, parseOf);
    timing.parseMs = median3(times.runs);
    timing.parsedBytes = times.bytes;
    timing.fetchMs = median3(times.fetches);
    timing.idbReadMs = median3(times.idbReads);
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

/**
 * The prompt of the first node on the canvas: zooms in on that node until it shows its form
 * (at the fitted zoom of a large workflow, nodes are plain boxes). Answers the textarea.
 */
export async function firstPrompt(page) {
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
  return page.locator(".react-flow__node textarea").first();
}

/**
 * Edits a prompt (one word typed at its end) and saves with Ctrl+S, as a user does; answers
 * in-page times from the edit's first key: `savedMs` until the editor shows "Saved",
 * `requestMs` until the last save request to /api/workflows finished, `keyToSaveMs` from the
 * Ctrl+S key, and the save requests (method, bytes sent). Waits for "Saved" to clear.
 */
export async function editAndSave(page, prompt, word = " edited") {
  await prompt.click();
  await page.keyboard.press("End");
  await page.evaluate(() => {
    const bench = window.__bench;
    bench.edit = { firstKey: null, saveKey: null, savedAt: null };
    const onKey = (event) => {
      if (bench.edit.firstKey === null) bench.edit.firstKey = event.timeStamp;
      if (event.key === "s" && event.ctrlKey) {
        bench.edit.saveKey = event.timeStamp;
        document.removeEventListener("keydown", onKey, true);
      }
    };
    document.addEventListener("keydown", onKey, true);
    const watch = new MutationObserver(() => {
      const saved = [...document.querySelectorAll('[role="status"]')].some(
        (status) => status.textContent?.trim() === "Saved",
      );
      if (saved && bench.edit.saveKey !== null) {
        bench.edit.savedAt = performance.now();
        watch.disconnect();
      }
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
    performance.clearResourceTimings();
  });
  const sent = [];
  const onRequest = (request) => {
    if (request.url().includes("/api/workflows") && request.method() !== "GET")
      sent.push({ method: request.method(), bytes: request.postDataBuffer()?.length ?? 0 });
  };
  page.on("request", onRequest);
  const profile = await startProfile(page, "save");
  await page.keyboard.type(word);
  await page.keyboard.press("Control+s");
  await page.waitForFunction(() => window.__bench.edit.savedAt !== null, null, {
    timeout: 120_000,
    polling: 20,
  });
  await profile.stop(await page.title());
  page.off("request", onRequest);
  const times = await page.evaluate(() => {
    const { firstKey, saveKey, savedAt } = window.__bench.edit;
    const saves = performance
      .getEntriesByType("resource")
      .filter((entry) => /\/api\/workflows(\/|$)/.test(new URL(entry.name).pathname))
      .filter((entry) => entry.initiatorType === "fetch" && entry.startTime >= saveKey);
    const requestEnd = Math.max(saveKey, ...saves.map((entry) => entry.responseEnd));
    return {
      // Request sent → answer received, summed over the save's requests (the server's part).
      serverMs: saves.reduce((sum, entry) => sum + entry.responseEnd - entry.requestStart, 0),
      savedMs: savedAt - firstKey,
      requestMs: requestEnd - firstKey,
      keyToSaveMs: savedAt - saveKey,
      typingMs: saveKey - firstKey,
    };
  });
  await page
    .getByRole("status")
    .filter({ hasText: /^Saved$/ })
    .waitFor({ state: "hidden", timeout: 10_000 });
  return { ...times, requests: sent };
}
