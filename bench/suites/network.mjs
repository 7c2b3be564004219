import { readFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { launchBrowser, openPage } from "../lib/browser.mjs";
import { openWorkflow, signedIn } from "../lib/editor.mjs";
import { row, withExtraCheck } from "../lib/report.mjs";
import { api, freePort, signUp, startServer } from "../lib/server.mjs";
import { median, sleep } from "../lib/stats.mjs";
import { SIZES, sizedWorkflow } from "../lib/workflows.mjs";

/**
 * F2 and N1: what crosses the network.
 *
 * F2 counts the JavaScript bytes on the wire when the production build of the editor ("/")
 * is visited for the first time, signed out, with `Accept-Encoding: br, gzip`, until the
 * network has been quiet for 2 s: the compressed (encoded) bodies of every script response,
 * CDP `Network.loadingFinished` `encodedDataLength` minus the response's header bytes (the
 * headers, HTTP/1.1 here and repeated per response, are in the note). Then a repeat visit in
 * the same browser context (warm HTTP cache): a new navigation (about:blank, then "/"), not a
 * reload, which Chromium may answer by revalidating; there the figure is every byte of script
 * responses, headers included. A counting proxy in front of the server sees every request
 * that reaches it, so a revalidation of a hashed file shows even if the browser reports it
 * as cached, and cross-checks the body bytes.
 *
 * N1 opens a 5 MB workflow from the Library (L1's "interactive") over an emulated link of
 * 50 Mbit/s each way and 40 ms RTT, against the time its uncompressed bytes alone take on that
 * link: bytes × 8 ÷ 50e6 s + one RTT. Each round is a fresh browser context (empty HTTP
 * cache and IndexedDB), so the open always fetches the workflow.
 */

const KB = 1024;
const QUIET_MS = 2000;
const VISIT_LIMIT_MS = 20_000;
const LINK = { bitsPerSecond: 50e6, rttMs: 40 };

/**
 * A loopback proxy that forwards everything to the server and records each request that
 * reached it: what the server saw, independently of the browser's cache flags.
 */
async function countingProxy() {
  const agent = new http.Agent({ keepAlive: true });
  const seen = [];
  let target = null;
  const proxy = http.createServer((request, response) => {
    const entry = {
      path: request.url.split("?")[0],
      method: request.method,
      acceptEncoding: request.headers["accept-encoding"],
      status: 0,
      bytes: 0,
    };
    seen.push(entry);
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: target,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (answer) => {
        entry.status = answer.statusCode;
        response.writeHead(answer.statusCode, answer.statusMessage, answer.rawHeaders);
        answer.on("data", (chunk) => {
          entry.bytes += chunk.length;
        });
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    // A browser that goes away (a closed context, an event stream) ends the upstream request
    // too, so the server is never left holding a connection for nobody.
    response.on("close", () => upstream.destroy());
    request.pipe(upstream);
  });
  // No upgrades (WebSocket) are expected; refuse them rather than hang.
  proxy.on("upgrade", (_request, socket) => socket.destroy());
  const port = await freePort();
  await new Promise((resolve) => proxy.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    forwardTo: (serverPort) => {
      target = serverPort;
    },
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

const header = (headers, name) => {
  const key = Object.keys(headers ?? {}).find((each) => each.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
};

/** Records every response of a page through CDP: size on the wire, decoded size, cache flags. */
async function recordNetwork(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const requests = new Map();
  let lastActivity = Date.now();
  const entry = (requestId) => {
    if (!requests.has(requestId)) requests.set(requestId, { requestId, decoded: 0 });
    return requests.get(requestId);
  };
  cdp.on("Network.requestWillBeSent", (event) => {
    lastActivity = Date.now();
    Object.assign(entry(event.requestId), {
      url: event.request.url,
      method: event.request.method,
      type: event.type,
      sentAt: event.timestamp,
    });
  });
  cdp.on("Network.requestServedFromCache", (event) => {
    entry(event.requestId).servedFromCache = true;
  });
  cdp.on("Network.responseReceived", (event) => {
    lastActivity = Date.now();
    const { response } = event;
    Object.assign(entry(event.requestId), {
      responseAt: event.timestamp,
      type: event.type,
      status: response.status,
      mimeType: response.mimeType,
      encoding: header(response.headers, "content-encoding") ?? "none",
      headerBytes: response.encodedDataLength,
      fromDiskCache: Boolean(response.fromDiskCache),
    });
  });
  cdp.on("Network.dataReceived", (event) => {
    const item = entry(event.requestId);
    item.decoded += event.dataLength;
    item.bodyChunks = (item.bodyChunks ?? 0) + event.encodedDataLength;
    item.lastDataAt = event.timestamp;
  });
  // Total bytes of the response (headers and encoded body) from loadingFinished; a request
  // the page cancels after its last byte ends in loadingFailed (net::ERR_ABORTED) without a
  // total, and under emulated conditions loadingFinished can report 0: then headers +
  // dataReceived's encoded bytes.
  const settle = (item) => {
    const counted = (item.headerBytes ?? 0) + (item.bodyChunks ?? 0);
    const cached = item.fromDiskCache || item.servedFromCache;
    item.wire = item.total > 0 || cached ? item.total : counted;
    item.body = Math.max(0, item.wire - (item.headerBytes ?? 0));
  };
  cdp.on("Network.loadingFinished", (event) => {
    lastActivity = Date.now();
    const item = entry(event.requestId);
    Object.assign(item, { done: true, total: event.encodedDataLength, endAt: event.timestamp });
    settle(item);
  });
  cdp.on("Network.loadingFailed", (event) => {
    lastActivity = Date.now();
    const item = entry(event.requestId);
    Object.assign(item, { done: true, failed: event.errorText, total: 0, endAt: event.timestamp });
    settle(item);
  });
  return {
    cdp,
    requests,
    /** Waits until no request has started or ended for `quietMs` and none is in flight. */
    async quiet(quietMs = QUIET_MS, limitMs = VISIT_LIMIT_MS) {
      const start = Date.now();
      for (;;) {
        // Event streams stay open by design: not "in flight".
        const pending = [...requests.values()].some(
          (each) => each.url && !each.done && each.type !== "EventSource",
        );
        if (!pending && Date.now() - lastActivity >= quietMs) return true;
        if (Date.now() - start > limitMs) return false;
        await sleep(100);
      }
    },
    clear: () => requests.clear(),
  };
}

const isScript = (request) =>
  Boolean(request.url) &&
  (new URL(request.url).pathname.endsWith(".js") ||
    /javascript/.test(request.mimeType ?? "") ||
    request.type === "Script");

/** The files the entry and the editor route import statically (as F1 counts them). */
function staticFiles(webRoot) {
  const manifest = JSON.parse(readFileSync(join(webRoot, ".vite/manifest.json"), "utf8"));
  const seen = new Set();
  const visit = (key) => {
    const item = manifest[key];
    if (!item || seen.has(`/${item.file}`)) return;
    seen.add(`/${item.file}`);
    for (const child of item.imports ?? []) visit(child);
  };
  visit("index.html");
  visit("src/features/editor/Editor.tsx");
  return seen;
}

const chunkName = (path) =>
  path
    .split("/")
    .pop()
    .replace(/-[\w-]{8}\.js$/, "");

/** One visit of "/": navigates, waits for the canvas and a quiet network, sums the scripts. */
async function visit(page, recorder, proxy, url) {
  recorder.clear();
  const proxyFrom = proxy.seen.length;
  await page.goto(url);
  await page.waitForSelector(".react-flow", { timeout: 30_000 });
  const wentQuiet = await recorder.quiet();
  const scripts = [...recorder.requests.values()].filter(isScript);
  const reached = proxy.seen
    .slice(proxyFrom)
    .filter((each) => each.path.startsWith("/assets/") && each.path.endsWith(".js"));
  const sum = (list, key) => list.reduce((total, each) => total + (each[key] ?? 0), 0);
  return {
    wentQuiet,
    scripts,
    wire: sum(scripts, "wire"),
    body: sum(scripts, "body"),
    decoded: sum(scripts, "decoded"),
    reached,
    reachedBody: sum(reached, "bytes"),
  };
}

const countBy = (list, key) => {
  const counts = {};
  for (const item of list) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return Object.entries(counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");
};

async function f2(ctx, browser) {
  const began = Date.now();
  const timings = {};
  const proxy = await countingProxy();
  let server = null;
  try {
    // The server's public URL is the proxy's, so sign-in origins match the page's.
    server = await startServer({
      webRoot: ctx.productionRoot,
      publicUrl: false,
      env: { PUBLIC_URL: proxy.url },
    });
    proxy.forwardTo(server.port);
    timings.serverStartMs = Date.now() - began;
    // A visitor's browser: the service worker registers and fills its cache in the background.
    const { context, page } = await openPage(browser, { serviceWorkers: "allow" });
    try {
      const recorder = await recordNetwork(context, page);
      const sentEncodings = [];
      recorder.cdp.on("Network.requestWillBeSentExtraInfo", (event) => {
        sentEncodings.push(header(event.headers, "accept-encoding"));
      });
      // What Chromium asks for by itself (156: "gzip, deflate, br, zstd", on http loopback
      // too); the row is defined for "br, gzip", so that is what every request then sends.
      await page.goto(`${proxy.url}/api/health`);
      const own = proxy.seen.at(-1)?.acceptEncoding ?? "?";
      sentEncodings.length = 0;
      await recorder.cdp.send("Network.setExtraHTTPHeaders", {
        headers: { "Accept-Encoding": "br, gzip" },
      });
      let at = Date.now();
      const first = await visit(page, recorder, proxy, proxy.url);
      first.acceptEncoding = [...new Set(sentEncodings.filter(Boolean))].join(" / ");
      first.ownEncoding = own;
      timings.firstVisitMs = Date.now() - at;
      // The service worker fills its cache in the background after the page has loaded; a
      // visitor comes back later than that, so the repeat visit waits for it to be ready.
      at = Date.now();
      const reachedBefore = proxy.seen.length;
      first.workerReady = await page.evaluate(
        (limit) =>
          Promise.race([
            navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false,
            new Promise((resolve) => setTimeout(() => resolve(false), limit)),
          ]),
        VISIT_LIMIT_MS,
      );
      first.workerRequests = proxy.seen.slice(reachedBefore);
      timings.workerReadyMs = Date.now() - at;
      // A repeat visit is a new navigation to the URL, not page.reload(): leave the app first.
      await page.goto("about:blank");
      at = Date.now();
      const repeat = await visit(page, recorder, proxy, proxy.url);
      timings.repeatVisitMs = Date.now() - at;
      return f2Rows(ctx, first, repeat, timings);
    } finally {
      await context.close();
    }
  } finally {
    // The proxy first: its connections to the server would hold the server's shutdown.
    await proxy.close();
    const stopping = Date.now();
    await server?.stop();
    timings.serverStopMs = Date.now() - stopping;
    ctx.log(`F2 took ${((Date.now() - began) / 1000).toFixed(0)} s (${JSON.stringify(timings)})`);
  }
}

function f2Rows(ctx, first, repeat, timings) {
  const initial = staticFiles(ctx.productionRoot);
  const paths = first.scripts.map((each) => new URL(each.url).pathname);
  const lazy = paths.filter((path) => !initial.has(path));
  const missing = [...initial].filter((path) => path.endsWith(".js") && !paths.includes(path));
  const encodings = countBy(first.scripts, (each) => each.encoding);
  const largest = [...first.scripts]
    .sort((a, b) => b.body - a.body)
    .slice(0, 3)
    .map((each) => `${chunkName(new URL(each.url).pathname)} ${(each.body / KB).toFixed(1)}`)
    .join(", ");
  const byPath = new Map(first.scripts.map((each) => [new URL(each.url).pathname, each]));
  const staticBody = [...initial].reduce((sum, path) => sum + (byPath.get(path)?.body ?? 0), 0);
  const firstRow = row({
    id: "F2/first",
    measure: "JS bytes on the wire, first visit (br, gzip), KB",
    values: [first.body / KB],
    target: { op: "<=", value: 170 },
    unit: "KB",
    note: `compressed bodies of ${first.scripts.length} script responses (${encodings}; Accept-Encoding sent "${first.acceptEncoding || "?"}", set by CDP, Chromium's own being "${first.ownEncoding}"; ${(first.decoded / KB).toFixed(0)} KB decoded; the proxy saw ${first.reached.length} /assets/*.js requests, ${(first.reachedBody / KB).toFixed(1)} KB of bodies); with HTTP/1.1 response headers ${(first.wire / KB).toFixed(1)} KB (${((first.wire - first.body) / KB).toFixed(1)} KB of headers, ~${Math.round((first.wire - first.body) / Math.max(1, first.scripts.length))} B each); F1's static graph ${(staticBody / KB).toFixed(1)} KB, and ${lazy.length} chunks the app loaded during the visit without user action, ${((first.body - staticBody) / KB).toFixed(1)} KB: ${lazy.map(chunkName).join(", ") || "none"}; largest: ${largest} KB${missing.length ? `; not fetched: ${missing.map(chunkName).join(", ")}` : ""}${first.wentQuiet ? "" : `; network not quiet within ${VISIT_LIMIT_MS / 1000} s`}; then, before the repeat visit, the service worker ${first.workerReady ? "finished installing" : `was not ready within ${VISIT_LIMIT_MS / 1000} s`}: ${first.workerRequests.length} more requests reached the server, ${(first.workerRequests.reduce((sum, each) => sum + each.bytes, 0) / KB).toFixed(1)} KB of bodies (its precache of the rest of the build)`,
    details: {
      scripts: first.scripts.map(({ url, status, encoding, wire, body, headerBytes, decoded }) => ({
        path: new URL(url).pathname,
        status,
        encoding,
        body,
        wire,
        headerBytes,
        decoded,
      })),
      withHeaders: first.wire,
      decoded: first.decoded,
      lazy,
      staticGraph: [...initial],
      reachedServer: first.reached,
      timings,
    },
  });
  const cached = repeat.scripts.filter(
    (each) => each.fromDiskCache || each.servedFromCache || each.wire === 0,
  );
  const repeatRow = withExtraCheck(
    row({
      id: "F2/repeat",
      measure: "JS bytes on the wire, repeat visit",
      values: [repeat.wire],
      target: { op: "<=", value: 0 },
      unit: "B",
      note: `new navigation to "/" in the same context after about:blank (not a reload); ${repeat.scripts.length} scripts, ${cached.length} from the cache (${countBy(repeat.scripts, (each) => (each.fromDiskCache ? "disk" : each.servedFromCache ? "memory" : each.wire === 0 ? "no bytes" : `network ${each.status}`))}); /assets/*.js requests that reached the server: ${repeat.reached.length}${repeat.reached.length ? ` (${repeat.reached.map((each) => `${chunkName(each.path)} ${each.status}`).join(", ")})` : ""}`,
      details: {
        scripts: repeat.scripts.map((each) => ({
          path: new URL(each.url).pathname,
          status: each.status,
          wire: each.wire,
          fromDiskCache: each.fromDiskCache,
          servedFromCache: each.servedFromCache ?? false,
        })),
        reachedServer: repeat.reached,
      },
    }),
    repeat.reached.length === 0,
    `${repeat.reached.length} script requests reached the server`,
  );
  return [firstRow, repeatRow];
}

/** One N1 round: a fresh signed-in context, the link emulated, open from the Library. */
async function n1Round(browser, server, cookie, id, name) {
  const { context, page } = await openPage(browser);
  try {
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
      }),
    );
    await page.goto(server.url);
    await signedIn(page);
    const recorder = await recordNetwork(context, page);
    const extra = new Map();
    recorder.cdp.on("Network.requestWillBeSentExtraInfo", (event) => {
      extra.set(event.requestId, header(event.headers, "accept-encoding"));
    });
    await recorder.cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: LINK.rttMs,
      downloadThroughput: LINK.bitsPerSecond / 8,
      uploadThroughput: LINK.bitsPerSecond / 8,
    });
    const timing = await openWorkflow(page, name);
    const path = `/api/workflows/${id}`;
    const gets = [...recorder.requests.values()].filter(
      (each) => each.url && new URL(each.url).pathname === path && each.method === "GET",
    );
    const get = gets.at(-1);
    if (!get?.done) throw new Error(`the open's GET ${path} was not seen`);
    return {
      ...timing,
      wire: get.wire,
      body: get.body,
      decoded: get.decoded,
      encoding: get.encoding,
      status: get.status,
      ended: get.failed ?? "finished",
      acceptEncoding: extra.get(get.requestId) ?? null,
      // Request sent → response headers (one RTT + the server's answer), then the body.
      headersMs: (get.responseAt - get.sentAt) * 1000,
      bodyMs: ((get.lastDataAt ?? get.responseAt) - get.responseAt) * 1000,
      gets: gets.length,
    };
  } finally {
    await context.close();
  }
}

async function n1(ctx, browser) {
  const data = await sizedWorkflow(SIZES["5 MB"], "bench 5 MB");
  const server = await startServer({ webRoot: ctx.webRoot });
  try {
    const { cookie } = await signUp(server.url, "n1");
    const name = "bench-n1-5mb";
    const created = await api(server.url, cookie, "POST", "/api/workflows", { name, data });
    const id = created.workflow.id;
    // The answer's uncompressed bytes: what the link would carry without compression.
    const answer = await fetch(`${server.url}/api/workflows/${id}`, {
      headers: { cookie, origin: server.url, "accept-encoding": "identity" },
    });
    if (!answer.ok) throw new Error(`GET /api/workflows/${id}: ${answer.status}`);
    const rawBytes = (await answer.arrayBuffer()).byteLength;
    const linkMs = ((rawBytes * 8) / LINK.bitsPerSecond) * 1000 + LINK.rttMs;
    const opens = [];
    for (let round = 0; round < ctx.rounds; round++) {
      opens.push(await n1Round(browser, server, cookie, id, name));
      ctx.log(`N1 round ${round + 1}/${ctx.rounds}: ${Math.round(opens.at(-1).openMs)} ms`);
    }
    const last = opens.at(-1);
    const mid = (key) => median(opens.map((each) => each[key]));
    const ms = (key) => `${Math.round(mid(key))} ms`;
    const whole = opens.every((each) => each.decoded === rawBytes);
    const cancelled = opens.filter((each) => each.ended !== "finished");
    return [
      row({
        id: "N1",
        measure: "open 5 MB at 50 Mbit/s, 40 ms RTT ÷ its raw bytes on that link",
        values: opens.map((each) => each.openMs / linkMs),
        target: { op: "<=", value: 0.5 },
        note: `open ${ms("openMs")} (first nodes ${ms("readyMs")}) vs ${Math.round(linkMs)} ms = ${rawBytes} B (${(rawBytes / 1048576).toFixed(2)} MiB) × 8 ÷ 50e6 bit/s + 40 ms RTT; the workflow GET: ${(mid("body") / KB).toFixed(0)} KB encoded body on the wire (${(mid("wire") / KB).toFixed(0)} KB with headers, ${(rawBytes / mid("body")).toFixed(1)}× smaller than raw), content-encoding ${last.encoding}, status ${last.status}, Accept-Encoding "${last.acceptEncoding ?? "?"}" (Chromium's own); headers after ${ms("headersMs")}, body in ${ms("bodyMs")}${whole ? "" : "; the body did not arrive whole"}${cancelled.length ? `; the page ended the GET with ${cancelled[0].ended} after its last byte in ${cancelled.length} of ${opens.length}` : ""}; a fresh browser context per open, both directions throttled (CDP Network.emulateNetworkConditions)`,
        details: { rawBytes, linkMs, opens },
      }),
    ];
  } finally {
    await server.stop();
  }
}

export async function runNetwork(ctx) {
  const rows = [];
  const browser = await launchBrowser();
  ctx.chromiumVersion ??= browser.version();
  try {
    if (ctx.wanted("F2")) {
      ctx.log("F2…");
      rows.push(...(await ctx.guard("F2", () => f2(ctx, browser), ctx)));
    }
    if (ctx.wanted("N1")) {
      ctx.log("N1…");
      rows.push(...(await ctx.guard("N1", () => n1(ctx, browser), ctx)));
    }
  } finally {
    await browser.close();
  }
  return rows;
}
