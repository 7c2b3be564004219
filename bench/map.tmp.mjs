// Maps a Chrome CPU profile's frames through the bench build's source maps; prints self and inclusive by original function.
import { readFileSync } from "node:fs";
import { SourceMapConsumer } from "source-map-js";
const prof = JSON.parse(readFileSync(process.argv[2], "utf8"));
const consumers = new Map();
const consumerFor = (url) => {
  const file = url.replace(/^https?:\/\/[^/]+\//, "");
  if (!file.startsWith("assets/")) return null;
  if (!consumers.has(file)) {
    try { consumers.set(file, new SourceMapConsumer(JSON.parse(readFileSync(`.build/web/${file}.map`, "utf8")))); } catch { consumers.set(file, null); }
  }
  return consumers.get(file);
};
const label = (n) => {
  const f = n.callFrame;
  const c = consumerFor(f.url);
  if (!c) return `${f.functionName || "(anon)"} ${f.url.replace(/.*\//, "")}`;
  const o = c.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  return `${o.name || f.functionName || "(anon)"} ${String(o.source).replace(/.*node_modules\//, "nm/").replace(/.*\/src\//, "src/")}:${o.line}`;
};
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
prof.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const selfBy = new Map(), inclBy = new Map();
const labels = new Map();
const lab = (id) => { if (!labels.has(id)) labels.set(id, label(byId.get(id))); return labels.get(id); };
for (const [id, t] of self) {
  selfBy.set(lab(id), (selfBy.get(lab(id)) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) { const k = lab(cur); if (!seen.has(k)) { seen.add(k); inclBy.set(k, (inclBy.get(k) ?? 0) + t); } }
}
const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => `${(t / 1000).toFixed(0).padStart(6)} ms  ${k}`).join("\n");
console.log("--- self"); console.log(top(selfBy, 30)); console.log("--- inclusive"); console.log(top(inclBy, 50));
