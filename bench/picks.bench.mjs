// Issue "Service requests" benchmark: pick creates over HTTP (one line each, allocation included)
// with 100,000 items and stock rows present, against the bare-Hono baseline in the same run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { createAgent } from "../dist/agent.js";
import { parseConfig } from "../dist/config/config.load.js";
import { AGENT_NODE_FLAGS, load, peakRssMb, startChild } from "./lib.mjs";
import { itemBody } from "./seed.mjs";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const CREATES = Number(process.env.BENCH_CREATES ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BASIC = `Basic ${Buffer.from("bench:bench-client-secret").toString("base64")}`;
const SR_PATH = "/api-gateway/sr-service/platform-srms/service-request";
const sku = (i) => `SKU-${String(i).padStart(7, "0")}`;

async function seed(dir) {
  const config = parseConfig({
    dataDir: dir,
    clientId: "bench",
    clientSecret: "bench-client-secret",
    adminUser: "bench",
    adminPassword: "bench-password-123",
    log: { level: "silent" },
    mqtt: { url: "off" },
  });
  const agent = createAgent(config, { log: pino({ level: "silent" }) });
  await agent.start(false);
  const { items, repos, unitOfWork } = agent.services;
  const t0 = performance.now();
  for (let start = 0; start < ITEMS; start += 5000) {
    // one transaction per 5000 items: each upsert joins it as a savepoint
    unitOfWork.run(() => {
      for (let i = start; i < Math.min(ITEMS, start + 5000); i++) {
        const id = items.upsert(itemBody(i)).id;
        const slot = `SLOT-${i}`;
        repos.stock.upsertLocation(slot, `MSU-${Math.floor(i / 40)}`);
        repos.stock.add(slot, id, 50);
      }
    });
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  await agent.stop();
  return { items: ITEMS, stockRows: ITEMS, seconds };
}

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
    const seeded = await seed(dir);
    const agent = await startChild("agent.mjs", [dir], {}, AGENT_NODE_FLAGS);
    const baseline = await startChild("baseline.mjs", [join(dir, "baseline.db")]);
    const base = `http://127.0.0.1:${agent.port}`;
    const bbase = `http://127.0.0.1:${baseline.port}`;
    const tokRes = await fetch(`${base}/api-gateway/auth-service/platform-auth/oauth/token`, {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&username=bench&password=bench-password-123",
    });
    const headers = {
      Authorization: `Bearer ${(await tokRes.json()).access_token}`,
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
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
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
      rounds.push({ agent: a, baseline: b, ratio: Math.round((a.perSecond / b.perSecond) * 100) / 100 });
    }
    const agentPeakRssMb = peakRssMb(agent.pid);
    await agent.stop();
    await baseline.stop();
    // start to ready with everything above in the database (100,000 items and stock rows, the requests)
    const again = await startChild("agent.mjs", [dir], {}, AGENT_NODE_FLAGS);
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
        })),
      },
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
