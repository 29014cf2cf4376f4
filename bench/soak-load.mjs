// The soak's traffic: a mix of what central and the station's own clients send (service request
// creates, scans, item searches and upserts, inventory reports, reads of state and notifications), and
// an operator at seat `front` of the simulated station working every pick created through the seat:
// rack scanned, item scanned (its bin lights), the bin's button pressed (picked), pressed again (emptied).
import { itemBody } from "./seed.mjs";

const SR_PATH = "/api-gateway/sr-service/platform-srms/service-request";
const SEARCH_PATH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";
const ITEM_PATH = "/api-gateway/mdm-service/wms-masterdata/item";
const REPORT_PATH = "/api-gateway/platform-dashboard/report/generate-inventory-report";
/** Picks created but not yet worked: kept under the simulated station's 8 bins so none waits for one. */
const MAX_OPEN_PICKS = 6;
const sku = (k) => `SKU-${String(k).padStart(7, "0")}`;

/** A JSON client of the agent: `call(method, path, body)` → { status, json }. */
export function client(base, token) {
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  return async (method, path, body) => {
    let res;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      return { status: `network: ${err.cause?.code ?? err.message}`, json: null };
    }
    const text = await res.text();
    return {
      status: res.status,
      json: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : null,
    };
  };
}

const pickBody = (id, k) => ({
  externalServiceRequestId: id,
  type: "PICK",
  serviceRequests: [
    {
      externalServiceRequestId: `${id}-1`,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              { productQuantity: 1, productAttributes: { filter_parameters: [`product_sku = '${sku(k)}'`] } },
            ],
          },
        ],
      },
    },
  ],
});

/**
 * Request `i` of the mix. Items [0, items/2) are picked (their picks are the operator's), the others
 * are scanned at seat `back` (refused: no work, nothing changes), searched and updated.
 */
export function mixed({ call, items, open }) {
  const half = Math.floor(items / 2);
  const spread = (i) => half + ((i * 7919) % (items - half));
  return (i) => {
    const r = i % 100;
    if (i % 500 === 499) return as("report", call("POST", REPORT_PATH));
    if (r < 15 && open.length < MAX_OPEN_PICKS) {
      const k = (i * 104729) % half;
      const id = `SOAK-${i}`;
      const created = call("POST", SR_PATH, pickBody(id, k)).then((res) => {
        if (res.status === 200) open.push({ id, k });
        return res;
      });
      return as("create pick", created);
    }
    if (r < 30)
      return as("scan", call("POST", "/station/scans", { seat: "back", barcode: `SKUBC${spread(i)}` }));
    if (r < 50) {
      const filter = [{ key: "product_sku", operator: "=", value: sku(spread(i)) }];
      return as("search", call("POST", SEARCH_PATH, { filter_params: filter }));
    }
    if (r < 55)
      return as("item upsert", call("POST", ITEM_PATH, { ...itemBody(spread(i)), description: `soak ${i}` }));
    if (r < 75) return as("state", call("GET", "/station/state"));
    if (r < 80) return as("engine", call("GET", "/station/engine"));
    if (r < 95)
      return as("notifications", call("GET", `/station/notifications?after=${Math.max(0, i - 50)}&limit=50`));
    return as("readyz", call("GET", "/readyz"));
  };
}

/** Tags an answer with what kind of request it was, for the statuses by kind. */
const as = (kind, answer) => answer.then((res) => ({ ...res, kind }));

/** `total` requests of `send(i)`, `concurrency` in flight; `onDone(count)` after each; statuses counted. */
export async function soakLoad({ total, concurrency, send, onDone }) {
  const statuses = {};
  const byKind = {};
  let next = 0;
  let done = 0;
  async function worker() {
    while (next < total) {
      const i = next++;
      let status;
      let kind = "?";
      try {
        ({ status, kind } = await send(i));
      } catch (err) {
        status = `network: ${err.cause?.code ?? err.message}`;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      byKind[kind] ??= {};
      byKind[kind][status] = (byKind[kind][status] ?? 0) + 1;
      onDone?.(++done);
    }
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { statuses, byKind, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The operator at seat `front`: works the open picks one by one through the simulated scanner and
 * buttons until `stop()`; a pick whose bin did not light goes back to the queue (at most 3 tries).
 */
export function operator({ call, open }) {
  let running = true;
  const outcomes = {};
  const count = (what) => {
    outcomes[what] = (outcomes[what] ?? 0) + 1;
  };
  const sim = async (path, body) => {
    const res = await call("POST", `/station/sim/${path}`, body);
    if (res.status !== 200)
      count(`${path} ${res.status} ${res.json?.details?.reason ?? res.json?.code ?? ""}`);
    return res.json?.outcome ?? {};
  };
  async function work(pick) {
    await sim("scan", { seat: "front", barcode: `MSU-${Math.floor(pick.k / 40)}` });
    const lit = await sim("scan", { seat: "front", barcode: `SKUBC${pick.k}` });
    if (lit.did !== "bin_lit") {
      count(`item scan: ${lit.did ?? lit.reason ?? lit.result}`);
      return false;
    }
    // the bin the seat lit (the simulated lights are shared: seat back's refusals flash them all)
    const seats = (await call("GET", "/station/engine")).json?.seats ?? [];
    const bin = seats.find((x) => x.seat === "front")?.pick?.binId;
    if (!bin) return false;
    const picked = await sim("press", { ppsBinId: bin });
    count(`pressed: ${picked.did}`);
    const emptied = await sim("press", { ppsBinId: bin });
    count(`pressed again: ${emptied.did}`);
    return picked.did === "picked";
  }
  const loop = (async () => {
    while (running || open.length) {
      const pick = open.shift();
      if (!pick) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      if (await work(pick)) {
        count("picks done");
        continue;
      }
      pick.tries = (pick.tries ?? 0) + 1;
      if (pick.tries < 3) open.push(pick);
      else count("picks given up");
    }
  })();
  return {
    outcomes,
    async stop() {
      running = false;
      await loop;
      return outcomes;
    },
  };
}
