#!/usr/bin/env node
/**
 * Where a CPU profile's time went (`node bench/lib/profile-summary.mjs file.cpuprofile
 * [web root]`): self time by function, named from the bench build's source maps (default
 * bench/.build/web), then by source file. Used for the notes of L1/L2/N1 (BENCH_PROFILE_DIR).
 */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { SourceMapConsumer } from "source-map-js";

const [file, root = "bench/.build/web"] = process.argv.slice(2);
if (!file) {
  console.error("usage: profile-summary.mjs <file.cpuprofile> [web root]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const maps = new Map();
function mapOf(url) {
  if (!url.includes("/assets/")) return null;
  const name = basename(new URL(url).pathname);
  if (!maps.has(name)) {
    try {
      maps.set(
        name,
        new SourceMapConsumer(readFileSync(join(root, "assets", `${name}.map`), "utf8")),
      );
    } catch {
      maps.set(name, null);
    }
  }
  return maps.get(name);
}

/** A frame as the source names it: function, file and line (node_modules shortened). */
function label({ functionName, url, lineNumber, columnNumber }) {
  const map = url ? mapOf(url) : null;
  let at = null;
  try {
    // Built-ins and evaluated scripts have no position (line -1).
    if (map && lineNumber >= 0)
      at = map.originalPositionFor({ line: lineNumber + 1, column: Math.max(0, columnNumber) });
  } catch {
    at = null;
  }
  if (!at?.source) return { fn: functionName || "(anonymous)", source: url || functionName };
  const source = at.source.replace(/^.*node_modules\//, "npm:").replace(/^(\.\.\/)+/, "");
  return { fn: at.name || functionName || "(anonymous)", source: `${source}:${at.line}` };
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
for (let at = 0; at < profile.samples.length; at++) {
  const node = byId.get(profile.samples[at]);
  const ms = (profile.timeDeltas[at + 1] ?? 0) / 1000;
  self.set(node.id, (self.get(node.id) ?? 0) + ms);
}
const total = [...self.values()].reduce((sum, ms) => sum + ms, 0);
const functions = new Map();
const files = new Map();
for (const [id, ms] of self) {
  const { fn, source } = label(byId.get(id).callFrame);
  const key = `${fn}  ${source}`;
  functions.set(key, (functions.get(key) ?? 0) + ms);
  const fileKey = source.replace(/:\d+$/, "");
  files.set(fileKey, (files.get(fileKey) ?? 0) + ms);
}
const top = (map, count) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([key, ms]) =>
        `${ms.toFixed(0).padStart(7)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
    )
    .join("\n");
console.log(
  `${basename(file)}: ${total.toFixed(0)} ms sampled\n\nby function (self):\n${top(functions, 30)}\n\nby file (self):\n${top(files, 20)}`,
);
