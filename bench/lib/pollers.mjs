/**
 * Q1's load: N simulated browser pollers, each POSTing its job's status, then waiting 3 s
 * after the answer before asking again (the web app's polling fallback), over keep-alive
 * connections. Runs as its own process: `node pollers.mjs '<json config>'`; prints one JSON
 * line with the latency percentiles of the requests started inside the measured window.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

const config = JSON.parse(process.argv[2]);
const {
  url,
  path,
  pollers,
  intervalMs,
  warmupMs,
  durationMs,
  requests,
  timeoutMs = 10_000,
} = config;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: pollers });
const latencies = [];
let errors = 0;
let sent = 0;
const began = performance.now();
const measureFrom = began + warmupMs;
const stopAt = measureFrom + durationMs;

function post({ cookie, body }) {
  return new Promise((resolve) => {
    const payload = Buffer.from(body);
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: "POST",
        path,
        headers: {
          "content-type": "application/json",
          "content-length": payload.length,
          origin: url,
          ...(cookie ? { cookie } : {}),
        },
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode === 200));
        response.on("error", () => resolve(false));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", () => resolve(false));
    request.end(payload);
  });
}

async function poller(index) {
  const request = requests[index % requests.length];
  // Pollers start spread over one interval, as tabs opened at different moments.
  await new Promise((resolve) => setTimeout(resolve, (index / pollers) * intervalMs));
  while (performance.now() < stopAt) {
    const start = performance.now();
    const ok = await post(request);
    const end = performance.now();
    if (start >= measureFrom && start < stopAt) {
      sent++;
      if (ok) latencies.push(end - start);
      else errors++;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

await Promise.all(Array.from({ length: pollers }, (_, index) => poller(index)));
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? null;
console.log(
  JSON.stringify({
    sent,
    ok: latencies.length,
    errors,
    rps: sent / (durationMs / 1000),
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? null,
  }),
);
