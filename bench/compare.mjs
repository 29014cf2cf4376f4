// Each benchmark result against the previous one of the same benchmark, machine (host and cores) and
// settings in bench/results/: the ratio per figure, and the figures that got more than 10% worse. A
// run with `--agent-dir` followed by one without is a before/after pair of two builds.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RESULTS_DIR } from "./lib.mjs";

/** Worse by more than this share counts as a regression. */
export const TOLERANCE = 0.1;

const sameMachine = (a, b) =>
  a?.cpus === b?.cpus && (a?.host && b?.host ? a.host === b.host : a?.cpuModel === b?.cpuModel);

/**
 * The newest earlier result of `record.name` on the same machine with the same settings (`config`),
 * not profiled nor SQL-counted (both slow the agent). Null when there is none.
 */
export function previousResult(record) {
  const stamped = new RegExp(`^${record.name}-\\d{4}-\\d{2}-\\d{2}T.*\\.json$`);
  let files;
  try {
    files = readdirSync(RESULTS_DIR).filter((f) => stamped.test(f));
  } catch {
    return null;
  }
  for (const file of files.sort().reverse()) {
    let r;
    try {
      r = JSON.parse(readFileSync(join(RESULTS_DIR, file), "utf8"));
    } catch {
      continue;
    }
    if (r.name !== record.name || r.date >= record.date || r.skipped || r.cpuProfiles || r.sqlCounts)
      continue;
    if (!sameMachine(r.machine, record.machine)) continue;
    if (JSON.stringify(r.config ?? null) !== JSON.stringify(record.config ?? null)) continue;
    return { file, result: r };
  }
  return null;
}

/**
 * Figures are `{ label: { value, better: "higher" | "lower", reference? } }`; a reference figure (the
 * baseline's own speed, the bare round trip) shows how the machine itself moved and is never flagged.
 */
export function compareFigures(before, now) {
  return Object.entries(now).map(([label, f]) => {
    const was = before[label]?.value;
    const ratio = typeof was === "number" && was > 0 ? f.value / was : null;
    const worse = ratio !== null && (f.better === "higher" ? ratio < 1 - TOLERANCE : ratio > 1 + TOLERANCE);
    return {
      label,
      before: was ?? null,
      now: f.value,
      better: f.better,
      ratio: ratio === null ? null : Math.round(ratio * 100) / 100,
      regression: worse && !f.reference,
      ...(f.reference ? { reference: true } : {}),
    };
  });
}

const cell = (v, w) => String(v ?? "-").padStart(w);

/** The comparison as text lines, for stderr. */
export function comparisonText(name, previous, rows) {
  if (!previous) return [`bench ${name}: no earlier result on this machine with these settings`];
  const b = previous.result.agentBuild;
  const head = `bench ${name}: against ${previous.file} (agent ${b?.commit ?? "?"}${b?.srcChanged ? "+changes" : ""} in ${b?.dir ?? "?"}, load ${previous.result.machineLoad?.before ?? "?"})`;
  const width = Math.max(...rows.map((r) => r.label.length));
  const lines = [head, `  ${"figure".padEnd(width)}  ${cell("before", 10)}  ${cell("now", 10)}  now/before`];
  for (const r of rows) {
    const note = r.regression ? `  REGRESSION (${r.better} is better)` : r.reference ? "  (reference)" : "";
    lines.push(
      `  ${r.label.padEnd(width)}  ${cell(r.before, 10)}  ${cell(r.now, 10)}  ${cell(r.ratio, 10)}${note}`,
    );
  }
  const moved = rows.filter((r) => r.reference && r.ratio !== null && Math.abs(r.ratio - 1) > TOLERANCE);
  if (moved.length && rows.some((r) => r.regression))
    lines.push(
      `  note: the reference figures moved too (${moved.map((r) => `${r.label} ×${r.ratio}`).join(", ")}): the machine changed between the runs, so a flagged figure may be the machine's, not the agent's`,
    );
  return lines;
}
