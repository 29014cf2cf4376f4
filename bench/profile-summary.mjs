// Summarises V8 CPU profiles (`npm run bench -- picks --cpu-prof` writes them; so does any
// `node --cpu-prof`): self and total time per function, per source file and per area (an agent
// folder under dist/, an npm package, node's internals, native code), top N each, as shares of the
// busy time (every sample but "(idle)").
//
//   node bench/profile-summary.mjs <file.cpuprofile | folder>... [--top 25] [--skip <ms>]
//                                  [--callees <regex>] [--callers <regex>]
//
// Total time counts a sample once per function (or file) on its stack, so recursion is not counted
// twice. A native function called from JavaScript (better-sqlite3's statements, an fsync in its
// COMMIT) has no frame of its own: its time is the self time of the JavaScript function that called
// it. `--skip` drops the first milliseconds of each profile (the start). `--callees <regex>` splits the
// total time of the (outermost) function whose "name file:line" matches by the function it called
// next, "(self)" for its own time: what a costly function spends its time on. `--callers <regex>`
// splits the self time of the matching functions by their two callers: who makes them cost.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: "string", default: "25" },
    skip: { type: "string", default: "0" },
    callees: { type: "string" },
    callers: { type: "string" },
  },
});
const TOP = Number(opts.top);
if (positionals.length === 0) {
  process.stderr.write("usage: node bench/profile-summary.mjs <file.cpuprofile | folder>... [--top N]\n");
  process.exit(2);
}

function profileFiles(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true })
    .filter((f) => String(f).endsWith(".cpuprofile"))
    .map((f) => join(path, String(f)));
}

/** A file's path as a reader knows it: dist/… of the agent, <package>/… of node_modules, node:… */
function shortUrl(url) {
  if (!url) return "(native)";
  const u = url.replace(/^file:\/\//, "");
  const nm = u.lastIndexOf("/node_modules/");
  if (nm >= 0) return u.slice(nm + "/node_modules/".length);
  const dist = u.lastIndexOf("/dist/");
  if (dist >= 0) return u.slice(dist + 1);
  return u.startsWith("node:") ? u : u.replace(/^.*\/(bench\/)/, "$1");
}

/** The area a file belongs to: an agent folder under dist/, an npm package, node internals, native. */
function areaOf(file) {
  if (file === "(native)") return "(native)";
  if (file.startsWith("node:")) return "node: internals";
  if (file.startsWith("dist/"))
    return file
      .split("/")
      .slice(0, file.split("/").length > 2 ? 2 : 1)
      .join("/");
  if (file.startsWith("@")) return file.split("/").slice(0, 2).join("/");
  return file.split("/")[0];
}

const self = { fn: new Map(), file: new Map(), area: new Map() };
const total = { fn: new Map(), file: new Map(), area: new Map() };
const callees = new Map();
const focusRe = opts.callees ? new RegExp(opts.callees) : null;
const callers = new Map();
const callersRe = opts.callers ? new RegExp(opts.callers) : null;
let busyUs = 0;
let idleUs = 0;
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);

for (const file of positionals.flatMap(profileFiles)) {
  const p = JSON.parse(readFileSync(file, "utf8"));
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const info = new Map();
  for (const n of p.nodes) {
    const cf = n.callFrame;
    const f = shortUrl(cf.url);
    const name = cf.functionName || "(anonymous)";
    const fn = cf.url ? `${name} ${f}:${cf.lineNumber + 1}` : name;
    info.set(n.id, { fn, file: f, area: areaOf(f), name, agent: f.startsWith("dist/") });
  }
  const deltas = p.timeDeltas ?? [];
  const mean = deltas.length ? (p.endTime - p.startTime) / deltas.length : 1000;
  let at = p.startTime;
  const from = p.startTime + Number(opts.skip) * 1000;
  p.samples.forEach((id, i) => {
    at += deltas[i] ?? 0;
    if (at < from) return;
    // a sample stands for the time until the next one
    const us = Math.max(0, deltas[i + 1] ?? mean);
    const leaf = info.get(id);
    if (!leaf || leaf.name === "(idle)") {
      idleUs += us;
      return;
    }
    busyUs += us;
    add(self.fn, leaf.fn, us);
    add(self.file, leaf.file, us);
    add(self.area, leaf.area, us);
    const seen = { fn: new Set(), file: new Set(), area: new Set() };
    let below = "(self)";
    let focus = null;
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const x = info.get(n);
      if (!x || x.name === "(root)") continue;
      for (const k of ["fn", "file", "area"]) {
        if (seen[k].has(x[k])) continue;
        seen[k].add(x[k]);
        add(total[k], x[k], us);
      }
      if (focusRe?.test(x.fn)) focus = { fn: x.fn, below };
      below = x.fn;
    }
    if (focus) add(callees, `${focus.fn} → ${focus.below}`, us);
    if (callersRe?.test(leaf.fn)) {
      const up = [parent.get(id), parent.get(parent.get(id))].map((n) => info.get(n)?.fn ?? "-");
      add(callers, `${leaf.fn} ← ${up.join(" ← ")}`, us);
    }
    if (!nodes.has(id)) throw new Error(`sample of unknown node ${id} in ${file}`);
  });
}

const ms = (us) => (us / 1000).toFixed(0).padStart(8);
const pct = (us) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;

function table(title, selfMap, totalMap, order) {
  const rows = [...(order === "self" ? selfMap : totalMap)].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  process.stdout.write(`\n${title} (top ${TOP} by ${order} time)\n`);
  process.stdout.write(
    `  ${"self ms".padStart(8)} ${"self".padStart(6)} ${"total ms".padStart(8)} ${"total".padStart(6)}  name\n`,
  );
  for (const [k] of rows) {
    const s = selfMap.get(k) ?? 0;
    const t = totalMap.get(k) ?? 0;
    process.stdout.write(`  ${ms(s)} ${pct(s)} ${ms(t)} ${pct(t)}  ${k}\n`);
  }
}

process.stdout.write(
  `busy ${(busyUs / 1000).toFixed(0)} ms, idle ${(idleUs / 1000).toFixed(0)} ms; shares are of the busy time\n`,
);
table("Functions", self.fn, total.fn, "self");
table("Functions", self.fn, total.fn, "total");
table("Source files", self.file, total.file, "self");
table("Source files", self.file, total.file, "total");
table("Areas", self.area, total.area, "self");
table("Areas", self.area, total.area, "total");
if (callersRe) {
  process.stdout.write(`\nSelf time of /${opts.callers}/ by its two callers (top ${TOP})\n`);
  for (const [k, v] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    process.stdout.write(`  ${ms(v)} ${pct(v)}  ${k}\n`);
}
if (focusRe) {
  process.stdout.write(`\nTotal time of /${opts.callees}/ by what it called next (top ${TOP})\n`);
  for (const [k, v] of [...callees].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    process.stdout.write(`  ${ms(v)} ${pct(v)}  ${k}\n`);
}
