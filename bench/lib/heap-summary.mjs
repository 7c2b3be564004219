#!/usr/bin/env node
/**
 * What a heap snapshot holds (`node bench/lib/heap-summary.mjs file.heapsnapshot`): self
 * sizes by node type and constructor name, largest first. Used for C5/heap's note
 * (BENCH_HEAP_DIR).
 */
import { readFileSync } from "node:fs";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("usage: heap-summary.mjs <file.heapsnapshot>");
  process.exit(2);
}
const snapshot = JSON.parse(readFileSync(file, "utf8"));
const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
const width = fields.length;
const at = Object.fromEntries(fields.map((field, index) => [field, index]));
const typeNames = types[0];
const groups = new Map();
let total = 0;
for (let node = 0; node < snapshot.nodes.length; node += width) {
  const type = typeNames[snapshot.nodes[node + at.type]];
  const name = snapshot.strings[snapshot.nodes[node + at.name]];
  const size = snapshot.nodes[node + at.self_size];
  total += size;
  // Strings, code and arrays by kind; objects by constructor.
  const key = ["object", "closure", "native"].includes(type) ? `${type} ${name}` : type;
  const group = groups.get(key) ?? { size: 0, count: 0 };
  group.size += size;
  group.count++;
  groups.set(key, group);
}
console.log(`${file}: ${(total / 1e6).toFixed(1)} MB of self sizes`);
for (const [key, { size, count }] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, 40))
  console.log(
    `${(size / 1e6).toFixed(2).padStart(8)} MB ${String(count).padStart(8)}  ${key.slice(0, 100)}`,
  );
