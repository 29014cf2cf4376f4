// `npm run bench [-- <bench>... ] [options]`: runs each benchmark (or those named) and writes its JSON
// result to bench/results/<name>-<time>.json and <name>-latest.json, then compares it with the previous
// result of the same benchmark on this machine with the same settings (compare.mjs): the ratio per
// figure, regressions over 10% flagged.
//
//   --agent-dir <checkout>   measure another checkout's build (its dist/, from `npm run build` there),
//                            e.g. an older commit: `git worktree add ../old <rev>`, link node_modules
//                            into it, `npm run build` in it; then `npm run bench -- picks --agent-dir
//                            ../old` and `npm run bench -- picks` give a before/after pair.
//   --cpu-prof               CPU profiles of the agent processes into --cpu-prof-dir (default
//                            bench/results/profiles/<time>/<bench>/<role>/); summarise them with
//                            `node bench/profile-summary.mjs <file.cpuprofile>`.
//   --cpu-prof-interval <µs> sampling interval (V8's default: 1000).
//   --sql-count              count the agent's SQL by statement (sql-count.mjs) into
//                            bench/results/sql-counts/<time>/<bench>/<role>/<pid>.txt.
//   --strict                 exit 1 when a figure regressed by more than 10%.
//   --broker <name>          the fleet benchmark with node kills and central's outage
//                            (fleet-cluster.bench.mjs; sets BENCH_FLEET_BROKER) on rabbitmq-cluster,
//                            nats-cluster or mosquitto (one node); without it, the one-Mosquitto
//                            throughput and restart benchmark (fleet.bench.mjs).
//   --seconds <n>            how long a timed bench runs (BENCH_SECONDS; the adversary soak: 300).
// Benchmark settings are environment variables (BENCH_CONCURRENCY, BENCH_SCANS, ...; see each bench).
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { compareFigures, comparisonText, previousResult } from "./compare.mjs";
import { agentBuild, machine, RESULTS_DIR, writeResult } from "./lib.mjs";

const benches = {
  adversary: () => import("./adversary.bench.mjs"),
  fleet: () => import("./fleet.bench.mjs"),
  backup: () => import("./backup.bench.mjs"),
  items: () => import("./items.bench.mjs"),
  labels: () => import("./labels.bench.mjs"),
  mqtt: () => import("./mqtt.bench.mjs"),
  picks: () => import("./picks.bench.mjs"),
  "pick-filters": () => import("./pick-filters.bench.mjs"),
  "power-cut": () => import("./power-cut.bench.mjs"),
  "scan-light": () => import("./scan-light.bench.mjs"),
  screen: () => import("./screen.bench.mjs"),
  soak: () => import("./soak.bench.mjs"),
  "unit-speed": () => import("./unit-speed.bench.mjs"),
  webhooks: () => import("./webhooks.bench.mjs"),
};

const { values: opts, positionals: wanted } = parseArgs({
  allowPositionals: true,
  options: {
    "agent-dir": { type: "string" },
    "cpu-prof": { type: "boolean", default: false },
    "cpu-prof-dir": { type: "string" },
    "cpu-prof-interval": { type: "string" },
    "sql-count": { type: "boolean", default: false },
    strict: { type: "boolean", default: false },
    broker: { type: "string" },
    seconds: { type: "string" },
  },
});
for (const w of wanted) if (!(w in benches)) throw new Error(`no benchmark '${w}' (${Object.keys(benches)})`);
if (opts["agent-dir"]) {
  const dir = resolve(opts["agent-dir"]);
  if (!existsSync(join(dir, "dist", "app", "agent.js")) && !existsSync(join(dir, "dist", "agent.js")))
    throw new Error(`${dir}/dist/app/agent.js does not exist: run \`npm run build\` in ${dir} first`);
  process.env.BENCH_AGENT_DIR = dir;
}
if (opts.broker) {
  if (!["mosquitto", "rabbitmq-cluster", "nats-cluster"].includes(opts.broker))
    throw new Error(`--broker ${opts.broker}: mosquitto, rabbitmq-cluster or nats-cluster`);
  process.env.BENCH_FLEET_BROKER = opts.broker;
}
const started = new Date().toISOString().replace(/[:.]/g, "-");
const profileRoot = opts["cpu-prof"]
  ? resolve(opts["cpu-prof-dir"] ?? join(RESULTS_DIR, "profiles", started))
  : null;
if (opts.seconds) process.env.BENCH_SECONDS = opts.seconds;
if (opts["cpu-prof-interval"]) process.env.BENCH_CPU_PROF_INTERVAL_US = opts["cpu-prof-interval"];
const sqlRoot = opts["sql-count"] ? join(RESULTS_DIR, "sql-counts", started) : null;
/** A profiled or counted run is slower: it is compared with nothing and nothing is compared with it. */
const instrumented = Boolean(profileRoot || sqlRoot);

let regressions = 0;
for (const [name, loader] of Object.entries(benches)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const build = agentBuild();
  process.stderr.write(`bench ${name}: running on ${build.dir} (${build.commit ?? "no git"})\n`);
  if (profileRoot) process.env.BENCH_CPU_PROF_DIR = join(profileRoot, name);
  if (sqlRoot) process.env.BENCH_SQL_COUNT_DIR = join(sqlRoot, name);
  const bench = await loader();
  const loadBefore = loadavg()[0];
  const result = await bench.run();
  const record = {
    name,
    date: new Date().toISOString(),
    machine: machine(),
    // other work on the machine shares its cores: the 1-minute load average around the run
    machineLoad: { before: loadBefore, after: loadavg()[0] },
    agentBuild: build,
    ...(profileRoot ? { cpuProfiles: process.env.BENCH_CPU_PROF_DIR } : {}),
    ...(sqlRoot ? { sqlCounts: process.env.BENCH_SQL_COUNT_DIR } : {}),
    ...result,
  };
  const previous = instrumented ? null : previousResult(record);
  const rows =
    previous && bench.figures ? compareFigures(bench.figures(previous.result), bench.figures(record)) : [];
  record.comparison = previous ? { with: previous.file, figures: rows } : null;
  const file = writeResult(name, record);
  process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  const lines = instrumented
    ? [`bench ${name}: profiled or SQL-counted, so compared with nothing`]
    : comparisonText(name, previous, rows);
  for (const line of lines) process.stderr.write(`${line}\n`);
  if (profileRoot) process.stderr.write(`bench ${name}: CPU profiles in ${record.cpuProfiles}\n`);
  if (sqlRoot) process.stderr.write(`bench ${name}: SQL counts in ${record.sqlCounts}\n`);
  process.stderr.write(`bench ${name}: written to ${file}\n`);
  regressions += rows.filter((r) => r.regression).length;
}
if (regressions && opts.strict) {
  process.stderr.write(`${regressions} figure(s) regressed by more than 10%\n`);
  process.exit(1);
}
