import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AppContext } from "../context.ts";
import { moduleLogger } from "../log.ts";
import {
  countJobs,
  JOB_STATES,
  QUEUE_WAIT_BUCKETS,
  queueWaits,
} from "../observability/job-metrics.ts";
import { registerReadHistogram } from "../observability/read-histogram.ts";
import { isEventStream, openEventStreamCount } from "./event-stream.ts";
import { isPrivateBind, metricsAccess } from "./metrics-access.ts";

/** The routes that save a workflow, and the kind of save each is. */
const SAVE_ROUTES: Record<string, string> = {
  "PUT /api/workflows/:id": "full",
  "PATCH /api/workflows/:id": "delta",
  "POST /api/workflows/:id/saves/:saveId/commit": "staged",
};

/**
 * Prometheus metrics at GET /metrics (docs/architecture.md lists them), in a registry of this
 * app's own so that several apps in one process (tests) do not share counters. Off — 404,
 * nothing measured — unless METRICS_TOKEN is set or HOST is a private address
 * (metrics-access.ts). Per-process figures: HTTP latency, saves, SSE clients, the process's
 * own; instance-wide ones, read from the database on each scrape: jobs and queue waits.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  const enabled = config.metricsToken !== null || isPrivateBind(config.host);
  const registry = enabled ? createRegistry(app, ctx) : null;
  app.get("/metrics", async (request, reply) => {
    // Outside /api, so not private by default: figures change every scrape.
    reply.header("cache-control", "no-store");
    const access = metricsAccess(config, request.headers.authorization);
    if (!registry || access === "off") return reply.code(404).send({ error: "Not found" });
    if (access === "refused")
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ error: "A valid metrics token is required" });
    const text = await registry.metrics();
    return reply.header("content-type", registry.contentType).send(text);
  });
}

function createRegistry(app: FastifyInstance, ctx: AppContext): Registry {
  const registry = new Registry();
  const log = moduleLogger("metrics");
  collectDefaultMetrics({ register: registry });

  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP answers by method, route pattern and status code (event streams excluded)",
    labelNames: ["method", "route", "status_code"],
    registers: [registry],
  });
  const saves = new Counter({
    name: "atelier_workflow_saves_total",
    help: "Workflow saves by kind (full, delta, staged) and outcome (saved, conflict, refused, failed)",
    labelNames: ["kind", "outcome"],
    registers: [registry],
  });
  const saveBytes = new Counter({
    name: "atelier_workflow_save_bytes_total",
    help: "Request bytes of the workflow saves that were stored, by kind",
    labelNames: ["kind"],
    registers: [registry],
  });
  new Gauge({
    name: "atelier_sse_clients",
    help: "Event streams (server-sent events) open on this process",
    registers: [registry],
    collect() {
      this.set(openEventStreamCount(app));
    },
  });
  new Gauge({
    name: "atelier_jobs",
    help: "Generation jobs by state and provider, instance-wide (read from the database)",
    labelNames: ["state", "provider"],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await countJobs(ctx.database.db).catch((error: unknown) => {
        log.warn({ err: error }, "could not read job counts");
        return [];
      });
      // Every state of a provider that has jobs, zeros included, so rates start from zero.
      for (const provider of new Set(counts.map((row) => row.provider)))
        for (const state of Object.values(JOB_STATES)) this.set({ state, provider }, 0);
      for (const row of counts) this.set({ state: row.state, provider: row.provider }, row.count);
    },
  });
  registerReadHistogram(registry, {
    name: "atelier_job_queue_wait_seconds",
    help: "Time from a job's creation to its submission to the provider, by provider, instance-wide",
    bounds: QUEUE_WAIT_BUCKETS,
    read: async () =>
      (
        await queueWaits(ctx.database.db).catch((error: unknown) => {
          log.warn({ err: error }, "could not read queue waits");
          return [];
        })
      ).map(({ provider, ...series }) => ({ labels: { provider }, ...series })),
  });

  app.addHook("onResponse", async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? "unmatched";
    const status = reply.statusCode;
    const kind = SAVE_ROUTES[`${request.method} ${route}`];
    if (kind) {
      saves.inc({ kind, outcome: saveOutcome(status) });
      const bytes = Number(request.headers["content-length"] ?? 0);
      if (status < 300 && bytes > 0) saveBytes.inc({ kind }, bytes);
    }
    // A stream's "latency" is how long it stayed open: the SSE gauge tells about those.
    if (isEventStream(request)) return;
    latency.observe(
      { method: request.method, route, status_code: String(status) },
      reply.elapsedTime / 1000,
    );
  });
  return registry;
}

function saveOutcome(status: number): string {
  if (status < 300) return "saved";
  if (status === 409) return "conflict";
  return status < 500 ? "refused" : "failed";
}
