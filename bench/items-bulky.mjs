// The bulky-document case of `npm run bench -- items` (docs/limits.md#item-documents): items whose
// imageData is ~967 KB of empty objects. For each build measured (this checkout, and the one in
// BENCH_BASE_DIR when set, e.g. `git worktree add /tmp/base main` built with `npm run build`, so both
// run in one bench on the same machine in the same minutes): BENCH_BULKY_ITEMS such items are stored
// through the build's own services, the agent (production flags) answers one search_v2 of them all,
// then takes one more such item over HTTP; a /healthz probe every 5 ms meanwhile gives the longest the
// event loop kept it waiting.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
import {
  agentDir,
  agentFlags,
  BENCH_USER,
  benchToken,
  keepAliveRequest,
  peakRssMb,
  startChild,
} from "./lib.mjs";

const ITEMS = Number(process.env.BENCH_BULKY_ITEMS ?? 10);
const EMPTIES = 322_000;
const SEARCH_PATH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";
const ITEM_PATH = "/api-gateway/mdm-service/wms-masterdata/item";

const bulky = (i) => ({
  schema: { unique: [["product_sku", "batch"]], type: "object" },
  attributes: {
    weight: { value: 1, uom: { unit: "G" } },
    dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
  },
  productAttributes: { product_sku: `BULK-${i}`, batch: "B-1" },
  barcodeList: [{ barcode: `BULK-BC-${i}` }],
  imageData: Array.from({ length: EMPTIES }, () => ({})),
});

/** Stores the items through `build`'s own services, without HTTP (as an older agent took them). */
async function seed(build, dataDir) {
  const load = (file) => import(pathToFileURL(join(build, "dist", file)).href);
  const [{ createAgent }, { parseConfig }] = await Promise.all([
    load("app/agent.js"),
    load("config/config.load.js"),
  ]);
  const config = parseConfig({ dataDir, ...BENCH_USER, log: { level: "silent" }, mqtt: { url: "off" } });
  const agent = createAgent(config, { log: pino({ level: "silent" }) });
  await agent.start(false);
  for (let i = 0; i < ITEMS; i++) agent.services.items.upsert(bulky(i));
  await agent.stop();
}

/** Runs `work` while /healthz is asked every 5 ms; the longest answer is the event loop's longest hold. */
async function probed(port, work) {
  const send = keepAliveRequest(port);
  let running = true;
  let longestMs = 0;
  let probes = 0;
  const prober = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        await send("GET", "/healthz", {});
      } catch {
        return;
      }
      longestMs = Math.max(longestMs, performance.now() - t0);
      probes++;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  let outcome;
  try {
    outcome = await work();
  } catch (e) {
    outcome = { error: String(e.cause?.code ?? e.message) };
  }
  const ms = performance.now() - t0;
  running = false;
  await prober;
  return { ...outcome, ms: Math.round(ms), longestHealthzMs: Math.round(longestMs), probes };
}

async function measure(build) {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bulky-"));
  try {
    await seed(build, dir);
    const agent = await startChild("agent.mjs", [dir], { BENCH_AGENT_DIR: build }, agentFlags("agent"));
    const base = `http://127.0.0.1:${agent.port}`;
    const auth = { Authorization: `Bearer ${await benchToken(base)}`, "Content-Type": "application/json" };
    const search = await probed(agent.port, async () => {
      const res = await fetch(`${base}${SEARCH_PATH}`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ filter_params: [{ key: "batch", operator: "=", value: "B-1" }] }),
      });
      const body = await res.arrayBuffer();
      return { status: res.status, bytes: body.byteLength };
    });
    const body = JSON.stringify(bulky(ITEMS));
    const upsert = await probed(agent.port, async () => {
      const res = await fetch(`${base}${ITEM_PATH}`, { method: "POST", headers: auth, body });
      await res.arrayBuffer();
      return { status: res.status, bytes: body.length };
    });
    const alive = await fetch(`${base}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    // a process that ran out of heap has no status left to read
    let rss = null;
    try {
      rss = peakRssMb(agent.pid);
    } catch {}
    if (alive) await agent.stop();
    return { build, search, upsert, agentSurvived: alive, agentPeakRssMb: rss };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function bulkyCase() {
  const builds = { after: agentDir() };
  if (process.env.BENCH_BASE_DIR) builds.before = process.env.BENCH_BASE_DIR;
  const out = { items: ITEMS, emptyObjectsEach: EMPTIES };
  for (const [name, build] of Object.entries(builds)) out[name] = await measure(build);
  return out;
}
