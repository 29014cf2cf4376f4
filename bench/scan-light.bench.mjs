// Issue "Station hardware" benchmark: scan → light latency, from the last byte of a scan written on the
// scanner's pseudo-terminal to the light command read on the controller's, over BENCH_SCANS scans:
// idle; under a saturating HTTP load (12 workers reading /station/state and 4 creating picks, each
// sending again as soon as answered: as much as the agent serves); under a steady load of
// BENCH_LOAD_RATE requests/s in the same mix; and the bare round trip of the same bytes through the
// same pseudo-terminals with no agent in between (a relay that only forwards). The load runs in its own
// process. Targets (DESIGN.md §7): p99 < 5 ms idle, < 20 ms under load.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_DIR, startChild, summary } from "./lib.mjs";
import { closePort, openPort, ptyPair, sortexxUnit } from "./pty.mjs";

const SCANS = Number(process.env.BENCH_SCANS ?? 10_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const BASIC = `Basic ${Buffer.from("bench:bench-client-secret").toString("base64")}`;
const READERS = Number(process.env.BENCH_LOAD_READERS ?? 12);
const WRITERS = Number(process.env.BENCH_LOAD_WRITERS ?? 4);
/** Requests per second of the steady (open-loop) load; the saturating load sends as fast as answered. */
const RATE = Number(process.env.BENCH_LOAD_RATE ?? 100);
const LIT = "<001001210>"; // bin 1 (shelf 1, compartment 1) green, cumulative on
const OFF = "<001001300>";

/** Resolves the next frame equal to `frame` with the time its last byte was read. */
function frameWaiter() {
  const waiting = [];
  return {
    onFrame(frame, at) {
      const i = waiting.findIndex((w) => w.frame === frame);
      if (i >= 0) waiting.splice(i, 1)[0].resolve(at);
    },
    next(frame) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${frame} within 5 s`)), 5000);
        waiting.push({
          frame,
          resolve: (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        });
      });
    },
  };
}

/** One scan is `BC-A` (the bin lights: measured) then `EXC-CANCEL` (the bin goes off: not measured). */
async function measure(scanner, waiter, n) {
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

async function setUp(base) {
  const tok = await fetch(`${base}/api-gateway/auth-service/platform-auth/oauth/token`, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=password&username=bench&password=bench-password-123",
  });
  const token = (await tok.json()).access_token;
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

export async function run() {
  const loadBefore = loadavg();
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-scan-"));
  const scannerPty = await ptyPair("scanner");
  const ptlPty = await ptyPair("ptl");
  const scanner = await openPort(scannerPty.device);
  const controller = await openPort(ptlPty.device);
  const waiter = frameWaiter();
  sortexxUnit(controller, waiter.onFrame);
  const stationFile = join(dir, "station.yaml");
  writeFileSync(
    stationFile,
    [
      "station:",
      "  seats: [front]",
      "  bins:",
      ...[1, 2, 3, 4, 5, 6, 7, 8].map(
        (b) => `    - { id: "${b}", light: { device: ptl, address: "00100${b}" } }`,
      ),
      "devices:",
      `  - { id: scanner, kind: scanner, profile: serial-scanner-cr, seat: front, transport: { serial: ${scannerPty.agent} } }`,
      `  - { id: ptl, kind: ptl-controller, profile: sortexx-ascii, transport: { serial: ${ptlPty.agent} } }`,
      "",
    ].join("\n"),
  );
  try {
    const statsFile = join(dir, "agent-stats.json");
    const agent = await startChild("station-agent.mjs", [join(dir, "data"), stationFile, statsFile]);
    const window = () => process.kill(agent.pid, "SIGUSR2");
    const base = `http://127.0.0.1:${agent.port}`;
    const token = await setUp(base);
    const ready = waiter.next(LIT);
    scanner.write("BADGE-bench\r");
    await new Promise((r) => setTimeout(r, 50));
    scanner.write("M1\r"); // the rack: the pick locks, its bin is 1
    await new Promise((r) => setTimeout(r, 50));
    scanner.write("BC-A\r");
    await ready;
    scanner.write("EXC-CANCEL\r");
    await waiter.next(OFF);

    await measure(scanner, waiter, WARMUP);
    window();
    const idle = summary(await measure(scanner, waiter, SCANS));
    window();
    let stopLoad = await startLoad(base, token, 0);
    await new Promise((r) => setTimeout(r, 500));
    const saturated = summary(await measure(scanner, waiter, SCANS));
    const saturatedLoad = await stopLoad();
    window();
    stopLoad = await startLoad(base, token, RATE);
    await new Promise((r) => setTimeout(r, 500));
    const steady = summary(await measure(scanner, waiter, SCANS));
    const steadyLoad = await stopLoad();
    await agent.stop();
    const [, idleLoop, saturatedLoop, steadyLoop] = JSON.parse(readFileSync(statsFile, "utf8"));

    const relay = await startChild("pty-relay.mjs", [scannerPty.agent, ptlPty.agent]);
    await measure(scanner, waiter, WARMUP);
    const bare = summary(await measure(scanner, waiter, SCANS));
    await relay.stop();

    return {
      scans: SCANS,
      // other processes on the machine share its cores: the 1-minute load average before and after
      machineLoadAverage: { before: loadBefore[0], after: loadavg()[0] },
      bareRoundTripMs: bare,
      idleMs: { ...idle, agent: idleLoop },
      underLoadMs: {
        saturating: {
          ...saturated,
          http: { readers: READERS, writers: WRITERS, ...saturatedLoad },
          agent: saturatedLoop,
        },
        steady: { ...steady, http: { ratePerSecond: RATE, ...steadyLoad }, agent: steadyLoop },
      },
      overBareP99Ms: {
        idle: idle.p99 - bare.p99,
        saturating: saturated.p99 - bare.p99,
        steady: steady.p99 - bare.p99,
      },
      targets: { idleP99Ms: 5, underLoadP99Ms: 20 },
      met: { idle: idle.p99 < 5, saturating: saturated.p99 < 20, steady: steady.p99 < 20 },
    };
  } finally {
    await closePort(scanner);
    await closePort(controller);
    await scannerPty.close(); // socat, by its pid
    await ptlPty.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
