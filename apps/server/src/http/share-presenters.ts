import {
  type AppRun,
  type AppSettings,
  type AppView,
  appFormOf,
  listOutputMedia,
  type RunNode,
  type ShareLink,
} from "@atelier/core";
import type { RunRead } from "../commands/runs/run-reads.ts";
import type { AppRow, ShareLinkRow } from "../db/rows.ts";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A link as its owner lists it. */
export function presentShareLink(row: ShareLinkRow): ShareLink {
  return {
    id: row.id,
    role: row.role,
    token: row.token,
    path: `/s/${row.token}`,
    expiresAt: iso(row.expiresAt),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The owner's publishing settings. */
export function presentAppSettings(row: AppRow): AppSettings {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    access: row.access,
    version: row.version,
    publishedAt: row.publishedAt.toISOString(),
    fields: row.fields,
    outputs: row.outputs,
  };
}

const graphOf = (row: AppRow) => row.graph as { nodes: RunNode[]; edges: [] };

/** The app page's form: labels and inputs only, never the workflow behind it. */
export function presentAppView(row: AppRow, viewerId: string | null): AppView {
  const form = appFormOf(graphOf(row), row.fields, row.outputs);
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    access: row.access,
    version: row.version,
    publishedAt: row.publishedAt.toISOString(),
    fields: form.ok ? form.fields : [],
    outputs: form.ok ? form.outputs : [],
    isOwner: viewerId === row.userId,
  };
}

/** What a node produced, as the app page shows it: media URLs, else its text. */
function valuesOf(outputs: Record<string, unknown> | null): string[] {
  if (!outputs) return [];
  const media = listOutputMedia(outputs).map((item) => item.url);
  if (media.length > 0) return media;
  return typeof outputs.text === "string" ? [outputs.text] : [];
}

/** An app run: its state and the app's shown outputs only (other nodes stay private). */
export function presentAppRun(read: RunRead, app: AppRow, viewerId: string): AppRun {
  const { run, nodes, progress } = read;
  const labels = new Map(
    presentAppView(app, viewerId).outputs.map((output) => [output.nodeId, output.label]),
  );
  const running = nodes.filter((node) => node.status === "running" && node.jobId);
  const progressOf = running.map((node) => progress.get(node.jobId as string) ?? null);
  const known = progressOf.filter((value): value is number => value !== null);
  return {
    id: run.id,
    status: run.status,
    version: run.appVersion ?? app.version,
    createdAt: run.createdAt.toISOString(),
    completedAt: iso(run.completedAt),
    runBy: run.userId === viewerId ? null : run.userId,
    progress: known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : null,
    outputs: app.outputs.map((output) => {
      const node = nodes.find((step) => step.nodeId === output.nodeId);
      return {
        nodeId: output.nodeId,
        label: labels.get(output.nodeId) ?? output.nodeId,
        status: node?.status ?? "skipped",
        values: valuesOf(node?.outputs ?? null),
        ...(node?.error ? { error: node.error } : {}),
      };
    }),
  };
}
