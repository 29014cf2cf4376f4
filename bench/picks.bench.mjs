// Issue "Service requests" benchmark: durable pick creates over HTTP (one line each, allocation
// included) with 100,000 items and stock rows present, against the naive durable stack (bare Hono +
// better-sqlite3 inserting the same JSON at synchronous=FULL) in the same run, over 32 connections.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentFlags, benchToken, fsyncProbe, load, peakRssMb, startChild } from "./lib.mjs";
import { seedItems } from "./seed.mjs";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const CREATES = Number(process.env.BENCH_CREATES ?? 4000);
/** Connections in flight: a station's own clients and central's at their busiest (BENCH_CONCURRENCY). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SR_PATH = "/api-gateway/sr-service/platform-srms/service-request";
const sku = (i) => `SKU-${String(i).padStart(7, "0")}`;

const pickBody = (i) =>
  JSON.stringify({
    externalServiceRequestId: `BENCH-${i}`,
    type: "PICK",
    attributes: { simple_priority: "normal" },
    serviceRequests: [
      {
        externalServiceRequestId: `BENCH-${i}-1`,
        type: "PICK_LINE",
        expectations: {
          containers: [
            {
              products: [
                {
                  productQuantity: 1,
                  productAttributes: { filter_parameters: [`product_sku = '${sku((i * 7919) % ITEMS)}'`] },
                },
              ],
            },
          ],
        },
      },
    ],
  });

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-picks-"));
  try {
    const seeded = await seedItems(dir, ITEMS, { stock: true });
    const agent = await startChild("agent.mjs", [dir], {}, agentFlags("agent"));
    const baseline = await startChild("baseline.mjs", [join(dir, "baseline.db")]);
    const base = `http://127.0.0.1:${agent.port}`;
    const bbase = `http://127.0.0.1:${baseline.port}`;
    const headers = {
      Authorization: `Bearer ${await benchToken(base)}`,
      "Content-Type": "application/json",
    };
    const plain = { "Content-Type": "application/json" };
    const toAgent = (i) => fetch(`${base}${SR_PATH}`, { method: "POST", headers, body: pickBody(i) });
    const toBaseline = (i) =>
      fetch(`${bbase}${SR_PATH}`, { method: "POST", headers: plain, body: pickBody(i) });
    // warm-up of both, not measured
    await load({ total: 500, concurrency: CONCURRENCY, send: (i) => toAgent(ROUNDS * CREATES + i) });
    await load({ total: 500, concurrency: CONCURRENCY, send: (i) => toBaseline(ROUNDS * CREATES + i) });
    // Rounds alternate between the two servers so a passing load on the machine hits both alike.
    // The disk's fsync time moves the baseline most (one fsync per create): probed before each round.
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const fsyncMs = fsyncProbe(dir);
      const a = await load({
        total: CREATES,
        concurrency: CONCURRENCY,
        send: (i) => toAgent(r * CREATES + i),
      });
      const b = await load({
        total: CREATES,
        concurrency: CONCURRENCY,
        send: (i) => toBaseline(r * CREATES + i),
      });
      const ratio = Math.round((a.perSecond / b.perSecond) * 100) / 100;
      rounds.push({ agent: a, baseline: b, ratio, fsyncMs });
    }
    const diskFsyncMs = { before: rounds[0]?.fsyncMs, after: fsyncProbe(dir) };
    const agentPeakRssMb = peakRssMb(agent.pid);
    await agent.stop();
    await baseline.stop();
    // start to ready with everything above in the database (100,000 items and stock rows, the requests)
    const again = await startChild("agent.mjs", [dir], {}, agentFlags("agent-restart"));
    const startToReady = {
      agentStartMs: Math.round(again.info.startMs),
      spawnToReadyMs: Math.round(again.spawnToReadyMs),
    };
    await again.stop();
    const median = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)];
    const ratio = median.ratio;
    const agentRun = median.agent;
    const baselineRun = median.baseline;
    return {
      config: {
        items: ITEMS,
        creates: CREATES,
        concurrency: CONCURRENCY,
        synchronous: "FULL",
        linesPerPick: 1,
      },
      seed: seeded,
      pickCreate: {
        agent: agentRun,
        baseline: baselineRun,
        ratioToBaseline: ratio,
        roundRatios: rounds.map((r) => r.ratio),
        rounds: rounds.map((r) => ({
          agentPerSecond: r.agent.perSecond,
          baselinePerSecond: r.baseline.perSecond,
          fsyncP50Ms: r.fsyncMs.p50,
        })),
      },
      diskFsyncMs,
      agentPeakRssMb,
      startToReady,
      targets: {
        "pick creates >= 1.0x baseline": ratio >= 1.0,
        "peak RSS < 150 MB": agentPeakRssMb !== null && agentPeakRssMb < 150,
        "start to ready < 1 s": startToReady.agentStartMs < 1000,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  const p = r.pickCreate;
  return {
    "agent creates/s": { value: p.agent.perSecond, better: "higher" },
    "agent ÷ baseline": { value: p.ratioToBaseline, better: "higher" },
    "agent p50 ms": { value: p.agent.latencyMs.p50, better: "lower" },
    "agent p99 ms": { value: p.agent.latencyMs.p99, better: "lower" },
    "agent peak RSS MB": { value: r.agentPeakRssMb, better: "lower" },
    "agent start ms": { value: r.startToReady.agentStartMs, better: "lower" },
    "baseline creates/s": { value: p.baseline.perSecond, better: "higher", reference: true },
    "disk fsync p50 ms": { value: r.diskFsyncMs?.before.p50, better: "lower", reference: true },
  };
}
