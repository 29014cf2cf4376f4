// Issue "Foundation" benchmark: item upsert throughput over HTTP against the bare-Hono baseline,
// search_v2 latency and start-to-ready with 100,000 items in the database; then the bulky-document
// case (items-bulky.mjs), before and after when BENCH_BASE_DIR names another build.
// BENCH_ITEMS_CASES=bulky runs that case alone.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { bulkyCase } from "./items-bulky.mjs";
import {
  agentFlags,
  agentModules,
  BENCH_USER,
  benchToken,
  keepAliveRequest,
  load,
  NO_USER_RATES,
  peakRssMb,
  startChild,
  summary,
} from "./lib.mjs";
import { itemBody, seedItems } from "./seed.mjs";

const { createAgent, parseConfig } = await agentModules();

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const UPSERTS = Number(process.env.BENCH_UPSERTS ?? 4000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ITEM_PATH = "/api-gateway/mdm-service/wms-masterdata/item";
const SEARCH_PATH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";

const searchBody = (i) =>
  JSON.stringify({
    filter_params: [
      {
        key: "product_sku",
        operator: "=",
        value: `SKU-${String((((i * 7919) % ITEMS) + ITEMS) % ITEMS).padStart(7, "0")}`,
      },
    ],
  });

export async function run() {
  if (process.env.BENCH_ITEMS_CASES === "bulky") return { bulky: await bulkyCase() };
  return { ...(await mainCase()), bulky: await bulkyCase() };
}

async function mainCase() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-"));
  try {
    const seeded = await seedItems(dir, ITEMS);

    // search_v2 inside the process: the handler's own cost, no socket.
    const config = parseConfig({
      dataDir: dir,
      ...BENCH_USER,
      log: { level: "silent" },
      // the search's own cost, not the per-user rate of the costly routes (docs/limits.md)
      http: NO_USER_RATES,
    });
    const local = createAgent(config, { log: pino({ level: "silent" }) });
    await local.start(false);
    const localToken = await benchToken("", (url, init) => local.app.request(url, init));
    const inproc = [];
    // The first thousand calls warm the JIT and the page cache; they are not measured.
    for (let i = -1000; i < SEARCHES; i++) {
      const t0 = performance.now();
      const res = await local.app.request(SEARCH_PATH, {
        method: "POST",
        headers: { Authorization: `Bearer ${localToken}`, "Content-Type": "application/json" },
        body: searchBody(i),
      });
      const found = await res.json();
      if (i >= 0) inproc.push(performance.now() - t0);
      if (found.length !== 1) throw new Error(`search ${i} found ${found.length}`);
    }
    await local.stop();

    // The agent as a service: start-to-ready, search over loopback HTTP, durable upserts.
    const agent = await startChild("agent.mjs", [dir], {}, agentFlags("agent"));
    const base = `http://127.0.0.1:${agent.port}`;
    const readyRes = await fetch(`${base}/readyz`);
    const tok = await benchToken(base);
    const auth = { Authorization: `Bearer ${tok}`, "Content-Type": "application/json" };
    const send = keepAliveRequest(agent.port);
    const overHttp = [];
    for (let i = -1000; i < SEARCHES; i++) {
      const body = searchBody(i);
      const t0 = performance.now();
      const res = await send(
        "POST",
        SEARCH_PATH,
        { ...auth, "Content-Length": Buffer.byteLength(body) },
        body,
      );
      if (i >= 0) overHttp.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`search ${i}: ${res.status}`);
    }
    // The transport floor: the same client and server answering /healthz, which does no work.
    const floor = [];
    for (let i = -1000; i < SEARCHES; i++) {
      const t0 = performance.now();
      await send("GET", "/healthz", {});
      if (i >= 0) floor.push(performance.now() - t0);
    }
    const payloads = Array.from({ length: UPSERTS }, (_, i) => JSON.stringify(itemBody(i, "NEW")));
    const agentUpsert = await load({
      total: UPSERTS,
      concurrency: CONCURRENCY,
      send: (i) => fetch(`${base}${ITEM_PATH}`, { method: "POST", headers: auth, body: payloads[i] }),
    });
    const agentPeakRssMb = peakRssMb(agent.pid);
    await agent.stop();

    const baseline = await startChild("baseline.mjs", [join(dir, "baseline.db")]);
    const baselineUpsert = await load({
      total: UPSERTS,
      concurrency: CONCURRENCY,
      send: (i) =>
        fetch(`http://127.0.0.1:${baseline.port}${ITEM_PATH}`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: payloads[i],
        }),
    });
    await baseline.stop();

    const searchHttp = summary(overHttp);
    const ratio = Math.round((agentUpsert.perSecond / baselineUpsert.perSecond) * 100) / 100;
    return {
      config: {
        items: ITEMS,
        upserts: UPSERTS,
        searches: SEARCHES,
        concurrency: CONCURRENCY,
        synchronous: "FULL",
      },
      seed: seeded,
      startToReady: {
        agentStartMs: Math.round(agent.info.startMs),
        spawnToReadyMs: Math.round(agent.spawnToReadyMs),
        readyz: readyRes.status,
      },
      searchV2: { inProcessMs: summary(inproc), overHttpMs: searchHttp, healthzOverHttpMs: summary(floor) },
      itemUpsert: { agent: agentUpsert, baseline: baselineUpsert, ratioToBaseline: ratio },
      agentPeakRssMb,
      targets: {
        "searchV2.p99 < 2 ms (in process)": summary(inproc).p99 < 2,
        "searchV2.p99 < 2 ms (over HTTP)": searchHttp.p99 < 2,
        "itemUpsert >= 0.5x baseline": ratio >= 0.5,
        "start to ready < 1 s": agent.info.startMs < 1000,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  const b = r.bulky?.after;
  const bulky = b
    ? {
        "bulky search ms": { value: b.search.ms, better: "lower" },
        "bulky search longest healthz ms": { value: b.search.longestHealthzMs, better: "lower" },
        "bulky upsert longest healthz ms": { value: b.upsert.longestHealthzMs, better: "lower" },
        "bulky agent peak RSS MB": { value: b.agentPeakRssMb, better: "lower" },
      }
    : {};
  const s = r.searchV2;
  if (!s) return bulky;
  return {
    ...bulky,
    "agent upserts/s": { value: r.itemUpsert.agent.perSecond, better: "higher" },
    "agent ÷ baseline": { value: r.itemUpsert.ratioToBaseline, better: "higher" },
    "search in process p50 ms": { value: s.inProcessMs.p50, better: "lower" },
    "search in process p99 ms": { value: s.inProcessMs.p99, better: "lower" },
    "search over HTTP p50 ms": { value: s.overHttpMs.p50, better: "lower" },
    "search over HTTP p99 ms": { value: s.overHttpMs.p99, better: "lower" },
    "agent peak RSS MB": { value: r.agentPeakRssMb, better: "lower" },
    "agent start ms": { value: r.startToReady.agentStartMs, better: "lower" },
    "baseline upserts/s": { value: r.itemUpsert.baseline.perSecond, better: "higher", reference: true },
    "healthz over HTTP p50 ms": { value: s.healthzOverHttpMs.p50, better: "lower", reference: true },
  };
}
