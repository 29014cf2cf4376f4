// Seeds a data folder through the real services of the build under test, in outer transactions of
// 5,000 so that seeding does not pay one fsync per row (the measured paths do). With
// servers/mqtt-drain.mjs (which watches the outbox), the only place the benchmarks reach past the
// agent's HTTP interface into its services: when those move, these follow.
import pino from "pino";
import { agentModules, BENCH_USER } from "./lib.mjs";

const { createAgent, parseConfig } = await agentModules();

export function itemBody(i, prefix = "SKU") {
  const sku = `${prefix}-${String(i).padStart(7, "0")}`;
  return {
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: "bench",
    attributes: {
      weight: { value: 100 + (i % 900), uom: { unit: "G" } },
      dimension: { length: 10, width: 20, height: 5, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: sku, fragile: i % 2 === 0, stackable_count: i % 7 },
    barcodeList: [{ barcode: `${prefix}BC${i}` }],
    description: `bench item ${i}`,
  };
}

/** The agent on `dataDir` without network (`start(false)`), for seeding. */
async function offlineAgent(dataDir, extra = {}) {
  const config = parseConfig({
    dataDir,
    ...BENCH_USER,
    log: { level: "silent" },
    mqtt: { url: "off" },
    ...extra,
  });
  const agent = createAgent(config, { log: pino({ level: "silent" }) });
  await agent.start(false);
  return agent;
}

/** The agent's unit of work; builds before the services were grouped by aggregate called it `tx`. */
const unitOfWork = (agent) => agent.services.unitOfWork ?? agent.services.tx;

/**
 * `count` items (`body(i)`, itemBody unless given); with `stock`, each also 50 units in its own slot
 * SLOT-i, 40 slots per MSU.
 */
export async function seedItems(dataDir, count, { stock = false, body = itemBody } = {}) {
  const agent = await offlineAgent(dataDir);
  const { items, repos } = agent.services;
  const t0 = performance.now();
  const batch = 5000;
  for (let start = 0; start < count; start += batch) {
    // one transaction per batch: each upsert joins it as a savepoint
    unitOfWork(agent).run(() => {
      for (let i = start; i < Math.min(count, start + batch); i++) {
        const id = items.upsert(body(i)).id;
        if (!stock) continue;
        repos.stock.upsertLocation(`SLOT-${i}`, `MSU-${Math.floor(i / 40)}`);
        repos.stock.add(`SLOT-${i}`, id, 50);
      }
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  await agent.stop();
  return { count, ...(stock ? { stockRows: count } : {}), seconds: Math.round(seconds * 10) / 10 };
}

/** `count` notifications of `type` in the outbox, undelivered, with `dataOf(i)` as data (i from 1). */
export async function seedOutbox(dataDir, count, type, dataOf) {
  const agent = await offlineAgent(dataDir, {
    site: "bench",
    ppsId: "1",
    outbox: { maxUndelivered: 100_000_000 },
  });
  const t0 = performance.now();
  for (let start = 1; start <= count; start += 5000) {
    unitOfWork(agent).run((t) => {
      for (let i = start; i < Math.min(count + 1, start + 5000); i++) t.notify(type, dataOf(i));
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  const bytes = agent.db.sqlite.prepare("SELECT sum(length(envelope)) AS b FROM outbox").get().b;
  await agent.stop();
  return {
    notifications: count,
    seconds: Math.round(seconds * 100) / 100,
    avgEnvelopeBytes: Math.round(bytes / count),
  };
}
