import { poll } from "../lib/poll.mjs";
import { row } from "../lib/report.mjs";
import { api, postgresAvailable, signUp, startServer } from "../lib/server.mjs";
import { interleave, median, ratios } from "../lib/stats.mjs";

/*
 * Q4 (issue 23): while one anonymous session floods `POST /api/generate` at 1,000 requests a
 * minute, another user's status p99 ÷ the same probe idle. The server runs its default
 * quotas (the other rows lift them), so the flood is mostly answered 429 — the figure shows
 * what refusing costs everyone else.
 */

const FLOOD_PER_MINUTE = 1000;
const POLLERS = 1000;
const PROBE = { intervalMs: 3000, warmupMs: 3000, durationMs: 6000 };
/** The defaults of env-limits.ts, which startServer lifts for the other rows. */
const DEFAULT_QUOTAS = {
  CONCURRENT_JOBS_PER_USER: "8",
  CONCURRENT_JOBS_PER_ANONYMOUS: "2",
  ANONYMOUS_GENERATIONS_PER_MINUTE: "10",
};

/** An anonymous session, as a signed-out browser gets one. */
async function anonymousCookie(url) {
  const response = await fetch(`${url}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: "{}",
  });
  if (!response.ok) throw new Error(`anonymous sign-in: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** Starts generations at FLOOD_PER_MINUTE until stopped; counts the answers by status. */
function flood(url, cookie) {
  const statuses = {};
  let sent = 0;
  const fire = () => {
    sent++;
    fetch(`${url}/api/generate/flux-pro`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url, cookie },
      body: JSON.stringify({
        nodeId: `flood-${sent}`,
        inputs: { prompt: "spam" },
        params: {},
      }),
    }).then(
      async (response) => {
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        await response.arrayBuffer();
      },
      () => {
        statuses.error = (statuses.error ?? 0) + 1;
      },
    );
  };
  const timer = setInterval(fire, 60_000 / FLOOD_PER_MINUTE);
  return {
    stop: () => {
      clearInterval(timer);
      return { sent, statuses };
    },
  };
}

async function q4(ctx) {
  const db = (await postgresAvailable()) ? "postgres" : "pglite";
  const server = await startServer({
    db,
    env: { LOCAL_PROVIDER_STEP_MS: "60000", ...DEFAULT_QUOTAS },
  });
  try {
    // Q1's probe on one user's jobs (up to its 8 at once), the pollers spread over them.
    const { cookie } = await signUp(server.url, "q4-user");
    const requests = [];
    for (let job = 0; job < 8; job++) {
      const started = await api(server.url, cookie, "POST", "/api/generate/flux-pro", {
        nodeId: `node-${job}`,
        inputs: { prompt: "a lighthouse" },
        params: {},
      });
      requests.push({ cookie, body: JSON.stringify({ requestId: started.requestId }) });
    }
    const flooder = await anonymousCookie(server.url);
    const probe = () =>
      poll({ url: server.url, path: "/api/queue/status", pollers: POLLERS, ...PROBE, requests });
    const idles = [];
    const floods = [];
    await probe(); // unrecorded: a cold server made the first round an outlier (Q1)
    const { base, cand } = await interleave({
      rounds: ctx.rounds,
      baseline: async () => {
        const result = await probe();
        idles.push(result);
        return result.p99;
      },
      candidates: {
        flooded: async () => {
          const running = flood(server.url, flooder);
          const result = await probe();
          floods.push({ probe: result, ...running.stop() });
          return result.p99;
        },
      },
      onRound: (round) => ctx.log(`Q4 round ${round + 1}/${ctx.rounds}`),
    });
    const sum = (key) => floods.reduce((total, entry) => total + (entry.statuses[key] ?? 0), 0);
    const sent = floods.reduce((total, entry) => total + entry.sent, 0);
    return [
      row({
        id: "Q4",
        measure: "status p99 while an anonymous session floods generate ÷ idle",
        values: ratios(cand.flooded, base),
        target: { op: "<=", value: 1.2 },
        note:
          `${POLLERS} pollers / 3 s on one user's 8 jobs: p99 ${median(cand.flooded).toFixed(1)} vs ${median(base).toFixed(1)} ms idle; ` +
          `flood ${FLOOD_PER_MINUTE}/min from one anonymous session: ${sent} sent, ${sum(202)} accepted, ${sum(429)} refused 429, ${sum("error")} failed (default quotas, ${db})`,
        details: { idles, floods },
      }),
    ];
  } finally {
    await server.stop();
  }
}

export async function runFlood(ctx) {
  if (!ctx.wanted("Q4")) return [];
  ctx.log("Q4…");
  return ctx.guard("Q4", q4, ctx);
}
