// Issue "Station hardware" benchmark: scan → light latency, from the last byte of a scan written on the
// scanner's pseudo-terminal to the light command read on the controller's, over BENCH_SCANS scans:
// idle; under a saturating HTTP load (12 workers reading /station/state and 4 creating picks, each
// sending again as soon as answered: as much as the agent serves); under a steady load of
// BENCH_LOAD_RATE requests/s in the same mix (BENCH_SCAN_PHASES picks among idle, saturating, steady).
// Against the bare baseline: a plain serialport script doing the same lookup on the same database and
// the same write on the same pseudo-terminals (servers/scan-bare.mjs), in rounds alternating with the
// idle agent. The load runs in its own process. Targets: idle p50 within 1.2x the bare p50; p99 < 5 ms idle,
// < 20 ms under load.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentFlags, BENCH_DIR, benchToken, startChild, summary } from "./lib.mjs";
import { closePort, frameWaiter, openPort, ptyPair, sortexxUnit } from "./pty.mjs";

const SCANS = Number(process.env.BENCH_SCANS ?? 10_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const READERS = Number(process.env.BENCH_LOAD_READERS ?? 12);
const WRITERS = Number(process.env.BENCH_LOAD_WRITERS ?? 4);
/** Requests per second of the steady (open-loop) load; the saturating load sends as fast as answered. */
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 100);
/** Rounds of bare script then idle agent, BENCH_SCANS scans in all on each side. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PHASES = (process.env.BENCH_SCAN_PHASES ?? "idle,saturating,steady").split(",");
export const LIT = "<001001210>"; // bin 1 (shelf 1, compartment 1) green, cumulative on
export const OFF = "<001001300>";

/** One scan is `BC-A` (the bin lights: measured) then `EXC-CANCEL` (the bin goes off: not measured). */
export async function measure(scanner, waiter, n) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const lit = waiter.next(LIT);
    const t0 = performance.now();
    scanner.write("BC-A\r");
    ms.push((await lit) - t0);
    const off = waiter.next(OFF);
    scanner.write("EXC-CANCEL\r");
    await off;
  }
  return ms;
}

async function http(base, token, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const item = (sku) => ({
  schema: { unique: [["product_sku"]], type: "object" },
  clientCategoryId: "bench",
  attributes: {
    weight: { value: 1, uom: { unit: "G" } },
    dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
  },
  productAttributes: { product_sku: sku },
  barcodeList: [{ barcode: `BC-${sku}` }],
});

/** The HTTP load in its own process: `rate` 0 is the saturating closed loop, else requests per second. */
async function startLoad(base, token, rate) {
  const script = join(BENCH_DIR, "servers", "http-load.mjs");
  const args = [script, base, token, String(READERS), String(WRITERS), String(rate)];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  await new Promise((ok) => child.stdout.once("data", ok));
  return async () => {
    const exited = new Promise((ok) => child.once("exit", ok));
    process.kill(child.pid, "SIGTERM");
    await exited;
    return JSON.parse(/STATS (.*)/.exec(out)?.[1] ?? "{}");
  };
}

export async function setUp(base) {
  const token = await benchToken(base);
  for (const sku of ["A", "LOAD"])
    await http(base, token, "POST", "/api-gateway/mdm-service/wms-masterdata/item", item(sku));
  await http(base, token, "PUT", "/station/stock", {
    location: "S1",
    msu: "M1",
    product_sku: "A",
    quantity: 1000,
  });
  const line = {
    externalServiceRequestId: "B1-1",
    type: "PICK_LINE",
    expectations: {
      containers: [
        {
          products: [{ productQuantity: 1, productAttributes: { filter_parameters: ["product_sku = 'A'"] } }],
        },
      ],
    },
  };
  await http(base, token, "POST", "/api-gateway/sr-service/platform-srms/service-request", {
    externalServiceRequestId: "B1",
    type: "PICK",
    serviceRequests: [line],
  });
  return token;
}

/** Bins 1..8 on the controller's modules 001001..001008. */
const BINS = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((b) => [String(b), `00100${b}`]));

export function stationYaml(scannerPath, ptlPath) {
  return [
    "station:",
    "  seats: [front]",
    "  bins:",
    ...Object.entries(BINS).map(([b, a]) => `    - { id: "${b}", light: { device: ptl, address: "${a}" } }`),
    "devices:",
    `  - { id: scanner, kind: scanner, profile: serial-scanner-cr, seat: front, transport: { serial: ${scannerPath} } }`,
    `  - { id: ptl, kind: ptl-controller, profile: sortexx-ascii, transport: { serial: ${ptlPath} } }`,
    "",
  ].join("\n");
}

/**
 * A scan every `everyMs` while `keepGoing()`: each measured scan → light with the time it was taken
 * (`at`, performance.now()), so that a long run can be cut into phases; a scan whose light does not
 * come within 5 s counts as lost.
 */
export async function scanLoop(scanner, waiter, keepGoing, everyMs = 100) {
  const ms = [];
  const at = [];
  let lost = 0;
  while (keepGoing()) {
    const t = performance.now();
    try {
      ms.push(...(await measure(scanner, waiter, 1)));
      at.push(t);
    } catch {
      lost++;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return { ms, at, lost };
}

/** The operator logs in, the rack is presented (the pick locks, its bin is 1), one scan lights it. */
export async function atTheStation(scanner, waiter) {
  const ready = waiter.next(LIT);
  scanner.write("BADGE-bench\r");
  await new Promise((r) => setTimeout(r, 50));
  scanner.write("M1\r");
  await new Promise((r) => setTimeout(r, 50));
  scanner.write("BC-A\r");
  await ready;
  scanner.write("EXC-CANCEL\r");
  await waiter.next(OFF);
}

/** The agent's phases (raw latencies each, and the HTTP load's own figures); `n` scans when idle. */
async function agentPhases(agent, scanner, waiter, base, token, phases, n) {
  const window = () => process.kill(agent.pid, "SIGUSR2");
  const out = {};
  await measure(scanner, waiter, WARMUP);
  for (const phase of phases) {
    window();
    const rate = { idle: null, saturating: 0, steady: RATE }[phase];
    if (rate === undefined) throw new Error(`BENCH_SCAN_PHASES: no phase '${phase}'`);
    const stopLoad = rate === null ? null : await startLoad(base, token, rate);
    if (stopLoad) await new Promise((r) => setTimeout(r, 500));
    const ms = await measure(scanner, waiter, rate === null ? n : SCANS);
    const http = stopLoad ? { readers: READERS, writers: WRITERS, rate, ...(await stopLoad()) } : null;
    out[phase] = { ms, http };
  }
  return out;
}

async function bare(dbFile, scannerPty, ptlPty, scanner, waiter, n) {
  const args = [dbFile, scannerPty.agent, ptlPty.agent, JSON.stringify(BINS)];
  const child = await startChild("scan-bare.mjs", args);
  try {
    await measure(scanner, waiter, WARMUP);
    return await measure(scanner, waiter, n);
  } finally {
    await child.stop();
  }
}

const round2 = (x) => Math.round(x * 100) / 100;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-scan-"));
  const scannerPty = await ptyPair("scanner");
  const ptlPty = await ptyPair("ptl");
  const scanner = await openPort(scannerPty.device);
  const controller = await openPort(ptlPty.device);
  const waiter = frameWaiter();
  sortexxUnit(controller, waiter.onFrame);
  const stationFile = join(dir, "station.yaml");
  writeFileSync(stationFile, stationYaml(scannerPty.agent, ptlPty.agent));
  const startAgent = (stats) =>
    startChild("station-agent.mjs", [join(dir, "data"), stationFile, stats], {}, agentFlags("station-agent"));
  try {
    // set up through the agent (HTTP and scans), stopped again: the bare baseline reads what it left
    let agent = await startAgent("");
    const base = () => `http://127.0.0.1:${agent.port}`;
    const token = await setUp(base());
    await atTheStation(scanner, waiter);
    await agent.stop();

    // Rounds alternate the bare script and the agent (idle), so a passing load on the machine hits
    // both alike; the last agent round goes on with the loaded phases.
    const perRound = Math.ceil(SCANS / ROUNDS);
    const bareRuns = [];
    const idleRuns = [];
    const statsFile = join(dir, "agent-stats.json");
    let last = {};
    for (let r = 0; r < ROUNDS; r++) {
      bareRuns.push(
        await bare(join(dir, "data", "pps-edge.db"), scannerPty, ptlPty, scanner, waiter, perRound),
      );
      const final = r === ROUNDS - 1;
      agent = await startAgent(final ? statsFile : "");
      const phases = final ? PHASES : PHASES.filter((p) => p === "idle");
      last = await agentPhases(agent, scanner, waiter, base(), token, phases, perRound);
      await agent.stop();
      if (last.idle) idleRuns.push(last.idle.ms);
    }
    // the station agent's event-loop delay and GC pauses, one window per phase (after the warm-up)
    const [, ...loops] = JSON.parse(readFileSync(statsFile, "utf8"));
    const agentMs = {};
    PHASES.forEach((p, i) => {
      const ms = p === "idle" ? idleRuns.flat() : last[p].ms;
      agentMs[p] = { ...summary(ms), ...(last[p].http ? { http: last[p].http } : {}), agent: loops[i] };
    });
    const bareMs = summary(bareRuns.flat());
    const met = {};
    if (agentMs.idle) {
      met["idle p50 within 1.2x bare p50"] = agentMs.idle.p50 <= 1.2 * bareMs.p50;
      met["idle p99 < 5 ms"] = agentMs.idle.p99 < 5;
    }
    for (const p of ["saturating", "steady"]) if (agentMs[p]) met[`${p} p99 < 20 ms`] = agentMs[p].p99 < 20;
    return {
      config: {
        scans: SCANS,
        rounds: ROUNDS,
        warmup: WARMUP,
        phases: PHASES,
        readers: READERS,
        writers: WRITERS,
        rate: RATE,
      },
      bareMs: { ...bareMs, roundP50s: bareRuns.map((b) => summary(b).p50) },
      agentMs,
      p50OverBare: Object.fromEntries(PHASES.map((p) => [p, round2(agentMs[p].p50 / bareMs.p50)])),
      idleRoundRatios: idleRuns.map((ms, i) => round2(summary(ms).p50 / summary(bareRuns[i]).p50)),
      overBareP99Ms: Object.fromEntries(PHASES.map((p) => [p, round2(agentMs[p].p99 - bareMs.p99)])),
      met,
    };
  } finally {
    await closePort(scanner);
    await closePort(controller);
    await scannerPty.close(); // socat, by its pid
    await ptlPty.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  const out = {};
  for (const [phase, m] of Object.entries(r.agentMs)) {
    out[`${phase} p50 ms`] = { value: m.p50, better: "lower" };
    out[`${phase} p99 ms`] = { value: m.p99, better: "lower" };
    out[`${phase} p50 ÷ bare p50`] = { value: r.p50OverBare[phase], better: "lower" };
  }
  out["bare p50 ms"] = { value: r.bareMs.p50, better: "lower", reference: true };
  return out;
}
