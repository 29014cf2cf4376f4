// Issue "budget for every input", finding 7: one pick whose filters are `key in (…)` lists over a key
// that many items share. Before set-based resolution each value was one SQL query on the event loop,
// times the items sharing it; this measures how long such a pick holds the loop (the longest gap
// between answers of a /healthz poller running beside it) and what it is answered, and the time of a
// legitimate multi-client pick whose lines name the shared key beside their SKU (docs/decisions.md
// "Work limits").
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentFlags, benchToken, keepAliveRequest, peakRssMb, startChild } from "./lib.mjs";
import { seedItems } from "./seed.mjs";

/** Items sharing one `client_id` (the key every filter value names). */
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
/** The bomb: lines × filter strings per line × values per `in` (each value the shared one). */
const LINES = Number(process.env.BENCH_FILTER_LINES ?? 4);
const FILTERS = Number(process.env.BENCH_FILTER_STRINGS ?? 20);
const VALUES = Number(process.env.BENCH_FILTER_VALUES ?? 100);
const SR_PATH = "/api-gateway/sr-service/platform-srms/service-request";

const body = (i) => ({
  schema: { unique: [["product_sku", "client_id"]], type: "object" },
  clientCategoryId: "bench-filters",
  attributes: {
    weight: { value: 100, uom: { unit: "G" } },
    dimension: { length: 10, width: 20, height: 5, uom: { unit: "CM" } },
  },
  productAttributes: { product_sku: `F-${i}`, client_id: "C1" },
  barcodeList: [{ barcode: `FBC${i}` }],
});

/** A multi-client pick as a WMS sends it: each line names its SKU and the client sharing the key. */
function selective(id, lines) {
  return JSON.stringify({
    externalServiceRequestId: id,
    type: "PICK",
    serviceRequests: Array.from({ length: lines }, (_, l) => ({
      externalServiceRequestId: `${id}-${l}`,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              {
                productQuantity: 1,
                productAttributes: { filter_parameters: ["client_id = 'C1'", `product_sku = 'F-${l}'`] },
              },
            ],
          },
        ],
      },
    })),
  });
}

function pick(id, lines, filters, values) {
  const list = Array.from({ length: values }, () => "'C1'").join(",");
  return JSON.stringify({
    externalServiceRequestId: id,
    type: "PICK",
    serviceRequests: Array.from({ length: lines }, (_, l) => ({
      externalServiceRequestId: `${id}-${l}`,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              {
                productQuantity: 1,
                productAttributes: {
                  filter_parameters: Array.from({ length: filters }, () => `client_id in (${list})`),
                },
              },
            ],
          },
        ],
      },
    })),
  });
}

/** Sends `payload` while polling /healthz; the longest wait for a /healthz answer is the loop stall. */
async function measured(base, headers, port, payload) {
  let poll = keepAliveRequest(port);
  let polling = true;
  let longest = 0;
  // a stall longer than the keep-alive timeout has the agent close the idle socket as the next /healthz
  // goes out: counted, and polled again on a new connection
  let resets = 0;
  const poller = (async () => {
    while (polling) {
      const s = performance.now();
      try {
        await poll("GET", "/healthz", {});
      } catch {
        resets++;
        poll = keepAliveRequest(port);
      }
      longest = Math.max(longest, performance.now() - s);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  const res = await fetch(`${base}${SR_PATH}`, { method: "POST", headers, body: payload });
  const answer = await res.json();
  const ms = performance.now() - t0;
  polling = false;
  await poller;
  return {
    bodyBytes: Buffer.byteLength(payload),
    status: res.status,
    code: answer.code ?? answer.state ?? null,
    ms: Math.round(ms),
    longestHealthzMs: Math.round(longest),
    healthzResets: resets,
  };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-pick-filters-"));
  try {
    const seeded = await seedItems(dir, ITEMS, { stock: true, body });
    const agent = await startChild("agent.mjs", [dir], {}, agentFlags("agent"));
    const base = `http://127.0.0.1:${agent.port}`;
    const headers = { Authorization: `Bearer ${await benchToken(base)}`, "Content-Type": "application/json" };
    const bomb = await measured(base, headers, agent.port, pick("BOMB", LINES, FILTERS, VALUES));
    // 20 lines, each naming its SKU beside the client all items share
    const fair = await measured(base, headers, agent.port, selective("FAIR", 20));
    const agentPeakRssMb = peakRssMb(agent.pid);
    await agent.stop();
    return {
      settings: { items: ITEMS, lines: LINES, filterStrings: FILTERS, valuesPerIn: VALUES },
      seeded,
      bomb,
      fair,
      agentPeakRssMb,
      targets: { "bomb holds the loop < 100 ms": bomb.longestHealthzMs < 100 },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "bomb longest /healthz ms": { value: r.bomb.longestHealthzMs, better: "lower" },
    "bomb answer ms": { value: r.bomb.ms, better: "lower" },
    "selective pick ms": { value: r.fair.ms, better: "lower" },
    "agent peak RSS MB": { value: r.agentPeakRssMb, better: "lower" },
  };
}
