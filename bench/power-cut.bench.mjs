// Power cuts under load: the built agent (dist/app/main.js run) on the power-cut file system
// (test/support/powercut/), two pick creators and an item upserter over HTTP, the power cut at a random
// moment (the agent killed, then everything not fsynced dropped), the agent started again on what the
// disk kept; then checked: every acknowledged change there, the notification sequence without gaps and
// naming every acknowledged create, PRAGMA integrity_check. Reports the cuts, the acknowledged changes,
// the lost ones, the sequence gaps, the integrity failures and the restart time (spawn to ready) p50/p99.
// Needs root, /dev/fuse and python3-fusepy (`npm run setup`).
//
//   BENCH_CUTS (100)            cuts
//   BENCH_SYNCHRONOUS (FULL)    db.synchronous; NORMAL adds db.powerSafe=false where that key exists
//   BENCH_CUT_MIN_MS (100), BENCH_CUT_SPREAD_MS (500)   load runs min + random(spread) ms before a cut
//   BENCH_SEED                  the cut moments' seed (printed in the result)
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { fsyncDir, mountPowerCut, powerCutUnavailable } from "../test/support/powercut/mount.mjs";
import { agentDir, agentFlags, BENCH_USER, benchToken, summary } from "./lib.mjs";
import { itemBody } from "./seed.mjs";

const CUTS = Number(process.env.BENCH_CUTS ?? 100);
const SYNCHRONOUS = process.env.BENCH_SYNCHRONOUS ?? "FULL";
const CUT_MIN_MS = Number(process.env.BENCH_CUT_MIN_MS ?? 100);
const CUT_SPREAD_MS = Number(process.env.BENCH_CUT_SPREAD_MS ?? 500);
const SEED = Number(process.env.BENCH_SEED ?? Date.now() % 100_000);
const SR = "/api-gateway/sr-service/platform-srms/service-request";
const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
/** The item every pick line asks for (seed.mjs's SKU naming). */
const K = itemBody(0, "K").productAttributes.product_sku;

function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The environment that sets db.synchronous (and, for NORMAL, the consent key where the build has it). */
async function dbEnv() {
  const env = { PPS_EDGE_DB_SYNCHRONOUS: SYNCHRONOUS };
  if (SYNCHRONOUS !== "NORMAL") return env;
  const load = (file) => import(pathToFileURL(join(agentDir(), "dist", "config", file)).href);
  const [{ leafPaths }, { configSchema }] = await Promise.all([
    load("config.env.js"),
    load("config.schema.js"),
  ]);
  if (leafPaths(configSchema).some((p) => p.join(".") === "db.powerSafe"))
    env.PPS_EDGE_DB_POWER_SAFE = "false";
  return env;
}

/** The agent as a process on `dataDir`; resolves once it logged ready, with the spawn-to-ready time. */
function startAgent(dataDir, env) {
  const t0 = performance.now();
  const proc = spawn(
    process.execPath,
    [...agentFlags("agent"), join(agentDir(), "dist", "app", "main.js"), "run"],
    {
      env: {
        ...process.env,
        PPS_EDGE_DATA_DIR: dataDir,
        PPS_EDGE_HTTP_PORT: "0",
        PPS_EDGE_CLIENT_ID: BENCH_USER.clientId,
        PPS_EDGE_CLIENT_SECRET: BENCH_USER.clientSecret,
        PPS_EDGE_ADMIN_USER: BENCH_USER.adminUser,
        PPS_EDGE_ADMIN_PASSWORD: BENCH_USER.adminPassword,
        PPS_EDGE_MQTT_URL: "off",
        PPS_EDGE_LOG_LEVEL: "info",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`agent did not start: ${err}${out}`)), 30_000);
    proc.stderr.on("data", (d) => {
      err += String(d);
    });
    proc.once("exit", (code) => reject(new Error(`agent exited with ${code}: ${err}${out}`)));
    proc.stdout.on("data", async (d) => {
      out += String(d);
      const line = out.split("\n").find((l) => l.includes('"pps-edge ready"'));
      if (!line || proc.readyLine) return;
      proc.readyLine = line;
      clearTimeout(timer);
      const readyMs = performance.now() - t0;
      proc.stdout.resume();
      const base = `http://127.0.0.1:${JSON.parse(line).address.port}`;
      try {
        const token = await benchToken(base);
        const call = (method, path, body) =>
          fetch(`${base}${path}`, {
            method,
            headers: {
              Authorization: `Bearer ${token}`,
              ...(body === undefined ? {} : { "Content-Type": "application/json" }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        resolve({
          readyMs,
          call,
          kill: async () => {
            proc.kill("SIGKILL");
            await exited;
          },
          stop: async () => {
            proc.kill("SIGTERM");
            await exited;
          },
        });
      } catch (e) {
        reject(e);
      }
    });
  });
}

async function must(res) {
  const r = await res;
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${r.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/** Two pick creators and an item upserter until the agent dies; what got a 2xx goes into `acked`. */
function startLoad(a, tag, acked) {
  const loop = (make, list) =>
    (async () => {
      for (let i = 0; ; i++) {
        const [id, path, body] = make(i);
        try {
          await must(a.call("POST", path, body));
        } catch {
          return;
        }
        list.push(id);
      }
    })();
  const create = (w) => (i) => {
    const id = `C-${tag}-${w}-${i}`;
    const line = {
      externalServiceRequestId: `${id}-1`,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              { productQuantity: 1, productAttributes: { filter_parameters: [`product_sku = '${K}'`] } },
            ],
          },
        ],
      },
    };
    return [id, SR, { externalServiceRequestId: id, type: "PICK", serviceRequests: [line] }];
  };
  const upsert = (i) => {
    const body = itemBody(i, `I${tag}`);
    return [body.productAttributes.product_sku, ITEM, body];
  };
  return Promise.all([
    loop(create(0), acked.creates),
    loop(create(1), acked.creates),
    loop(upsert, acked.items),
  ]);
}

async function lostOf(a, acked) {
  let lost = 0;
  for (const id of acked.creates) {
    const r = await a.call("GET", `${SR}/${id}?type=PICK`);
    await r.arrayBuffer();
    if (r.status !== 200) lost++;
  }
  for (const sku of acked.items) {
    const r = await a.call("POST", `${ITEM}/search_v2`, {
      filter_params: [{ key: "product_sku", operator: "=", value: sku }],
    });
    const found = await r.json();
    if (!Array.isArray(found) || found.length !== 1) lost++;
  }
  return lost;
}

/** Missing sequence numbers below the last, and the acknowledged creates no notification names. */
async function notificationCheck(a, creates) {
  const seqs = [];
  const informed = new Set();
  let lastSeq = 0;
  for (let after = 0; ; ) {
    const page = await must(a.call("GET", `/station/notifications?after=${after}&limit=1000`));
    lastSeq = page.lastSeq;
    for (const x of page.notifications) {
      seqs.push(x.seq);
      if (x.notification.notification_type === "order_information")
        informed.add(x.notification.notification_data.externalServiceRequestId);
    }
    if (page.notifications.length < 1000) break;
    after = page.notifications.at(-1).seq;
  }
  const seen = new Set(seqs);
  let gaps = seqs.length - seen.size; // a number twice counts too
  for (let s = 1; s <= lastSeq; s++) if (!seen.has(s)) gaps++;
  return { gaps, unnotified: creates.filter((id) => !informed.has(id)).length, lastSeq };
}

function integrityOk(dataDir) {
  const db = new Database(join(dataDir, "pps-edge.db"), { fileMustExist: true });
  try {
    const rows = db.pragma("integrity_check");
    return rows.length === 1 && rows[0].integrity_check === "ok";
  } finally {
    db.close();
  }
}

export async function run() {
  const why = powerCutUnavailable();
  if (why) throw new Error(`power-cut bench: ${why} (npm run setup installs python3-fusepy)`);
  const env = await dbEnv();
  const next = random(SEED);
  const fs = await mountPowerCut("pps-edge-bench-powercut-");
  const t0 = performance.now();
  const restartMs = [];
  const totals = { creates: 0, items: 0, lost: 0, seqGaps: 0, unnotified: 0, integrityFailures: 0 };
  const allCreates = [];
  let a;
  try {
    const dataDir = join(fs.dir, "data");
    mkdirSync(dataDir);
    fsyncDir(fs.dir);
    a = await startAgent(dataDir, env);
    await must(a.call("POST", ITEM, itemBody(0, "K")));
    await must(
      a.call("PUT", "/station/stock", { location: "K1", msu: "KM", product_sku: K, quantity: 10_000_000 }),
    );
    for (let cut = 1; cut <= CUTS; cut++) {
      const acked = { creates: [], items: [] };
      const load = startLoad(a, String(cut), acked);
      await new Promise((r) => setTimeout(r, CUT_MIN_MS + Math.floor(next() * CUT_SPREAD_MS)));
      await a.kill();
      a = undefined;
      fs.cut();
      await load;
      a = await startAgent(dataDir, env);
      restartMs.push(a.readyMs);
      if (!integrityOk(dataDir)) totals.integrityFailures++;
      totals.creates += acked.creates.length;
      totals.items += acked.items.length;
      totals.lost += await lostOf(a, acked);
      allCreates.push(...acked.creates);
      const n = await notificationCheck(a, allCreates);
      totals.seqGaps = n.gaps;
      totals.unnotified = n.unnotified;
      if (cut % 10 === 0)
        process.stderr.write(`bench power-cut: ${cut}/${CUTS} cuts, ${totals.lost} lost, ${n.gaps} gaps\n`);
    }
  } finally {
    await a?.stop();
    await fs.unmount();
  }
  const acknowledged = totals.creates + totals.items;
  return {
    config: {
      cuts: CUTS,
      synchronous: SYNCHRONOUS,
      env,
      cutAfterMs: [CUT_MIN_MS, CUT_MIN_MS + CUT_SPREAD_MS],
      seed: SEED,
    },
    cuts: CUTS,
    acknowledged: { total: acknowledged, creates: totals.creates, itemUpserts: totals.items },
    lost: totals.lost,
    seqGaps: totals.seqGaps,
    unnotifiedCreates: totals.unnotified,
    integrityFailures: totals.integrityFailures,
    restartMs: summary(restartMs),
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    targets: {
      "no acknowledged change lost": totals.lost === 0,
      "no sequence gap": totals.seqGaps === 0,
      "every acknowledged create notified": totals.unnotified === 0,
      "integrity_check ok after every cut": totals.integrityFailures === 0,
    },
  };
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "lost changes": { value: r.lost, better: "lower" },
    "sequence gaps": { value: r.seqGaps, better: "lower" },
    "integrity failures": { value: r.integrityFailures, better: "lower" },
    "restart p50 ms": { value: r.restartMs.p50, better: "lower" },
    "restart p99 ms": { value: r.restartMs.p99, better: "lower" },
    "acknowledged changes": { value: r.acknowledged.total, better: "higher", reference: true },
  };
}
