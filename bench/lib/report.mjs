import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { round, summarize } from "./stats.mjs";

/**
 * One row per figure: what was measured, its median and spread, the target and the verdict.
 * A missed target is a FAIL in the table, never a crash: the harness exits 0 when it ran.
 */

const OPS = {
  "<=": (value, target) => value <= target,
  ">=": (value, target) => value >= target,
};

/** A row from repeated values (ratios or counts); `target` is `{ op, value }`. */
export function row({ id, measure, values, target, unit = "×", note = "", details = {} }) {
  const figure = summarize(values);
  const pass = figure.n > 0 && OPS[target.op](figure.median, target.value);
  return {
    id,
    measure,
    unit,
    figure,
    target: { ...target, text: `${target.op === "<=" ? "≤" : "≥"} ${target.value}` },
    status: figure.n === 0 ? "ERROR" : pass ? "PASS" : "FAIL",
    note,
    details,
  };
}

/** A row whose verdict needs more than one comparison (e.g. L2: ratio and longest task). */
export function withExtraCheck(base, ok, why) {
  if (base.status !== "PASS" || ok) return base;
  return { ...base, status: "FAIL", note: [base.note, why].filter(Boolean).join("; ") };
}

export const notMeasurable = (id, measure, target, reason) => ({
  id,
  measure,
  figure: null,
  target: { text: target },
  status: "NOT MEASURABLE",
  note: `not measurable yet: ${reason}`,
  details: {},
});

export const errorRow = (id, measure, target, error) => ({
  id,
  measure,
  figure: null,
  target: { text: target },
  status: "ERROR",
  note: `harness error: ${String(error?.message ?? error).split("\n")[0]}`,
  details: { stack: String(error?.stack ?? error) },
});

const fmt = (value) => {
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  return String(size >= 100 ? Math.round(value) : size >= 10 ? round(value, 1) : round(value, 3));
};

function figureText(entry) {
  if (!entry.figure) return "—";
  const { median, spread, n } = entry.figure;
  const unit = entry.unit && entry.unit !== "×" ? ` ${entry.unit}` : entry.unit === "×" ? "×" : "";
  return n > 1
    ? `${fmt(median)}${unit} ±${Math.round(spread * 50)}% (n=${n})`
    : `${fmt(median)}${unit}`;
}

/** Prints the rows as a fixed-width table. */
export function printTable(rows, out = console.log) {
  const head = ["ID", "Measure", "Figure (median ±IQR/2)", "Target", "Result", "Notes"];
  const body = rows.map((entry) => [
    entry.id,
    entry.measure,
    figureText(entry),
    entry.target?.text ?? "",
    entry.status,
    entry.note ?? "",
  ]);
  const widths = head.map((title, column) =>
    Math.min(
      column === 5 ? 90 : 48,
      Math.max(title.length, ...body.map((cells) => cells[column].length)),
    ),
  );
  const line = (cells) =>
    cells.map((cell, column) => cell.slice(0, widths[column]).padEnd(widths[column])).join(" | ");
  out(line(head));
  out(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const cells of body) {
    out(line(cells));
    // Long notes continue on following lines rather than being cut.
    for (let rest = cells[5].slice(widths[5]); rest; rest = rest.slice(widths[5])) {
      out(line(["", "", "", "", "", rest.slice(0, widths[5])]));
    }
  }
}

export function writeResults(file, payload) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
}
