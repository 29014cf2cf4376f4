import { expect } from "vitest";
import type { TestAgent } from "./agent.js";
import { deadline } from "./deadline.js";
import { itemBody } from "./fixtures.js";

export const SR = "/api-gateway/sr-service/platform-srms/service-request";
export const CORE = "/api-gateway/integration-service/wms-integration/core/api";
export const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";

// biome-ignore lint/suspicious/noExplicitAny: assertions walk spec payloads of many shapes; the spec, not a type, is the contract
export type Json = Record<string, any>;

export interface Envelope {
  notification_type: string;
  version_number: string;
  notification_id: string;
  notification_data: Json;
}

/** Reads notifications in sequence order, remembering where the last read stopped. */
export class NotificationReader {
  private seq = 0;
  constructor(private readonly t: TestAgent) {}

  async lastSeq(): Promise<number> {
    const res = await this.t.call("GET", "/station/notifications?after=0&limit=1");
    return ((await res.json()) as { lastSeq: number }).lastSeq;
  }

  /** Skips everything emitted so far. */
  async catchUp(): Promise<void> {
    this.seq = await this.lastSeq();
  }

  /** Everything new since the last read, checking the envelope of each. */
  async next(): Promise<Envelope[]> {
    const res = await this.t.call("GET", `/station/notifications?after=${this.seq}&limit=1000`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { notifications: Array<{ seq: number; notification: Envelope }> };
    const out: Envelope[] = [];
    for (const n of page.notifications) {
      expect(n.seq).toBe(this.seq + 1);
      this.seq = n.seq;
      expect(Object.keys(n.notification).sort()).toEqual([
        "notification_data",
        "notification_id",
        "notification_type",
        "version_number",
      ]);
      expect(n.notification.version_number).toBe("1.5.0");
      out.push(n.notification);
    }
    return out;
  }

  /** Waits (bounded) until at least `count` new notifications exist, for work done just after a response. */
  async waitFor(count: number, timeoutMs = 2000): Promise<Envelope[]> {
    const end = Date.now() + deadline(timeoutMs);
    const got: Envelope[] = [];
    while (got.length < count && Date.now() < end) {
      got.push(...(await this.next()));
      if (got.length < count) await new Promise((r) => setTimeout(r, 5));
    }
    return got;
  }
}

/** `[type, state]` of each notification, the shape most flow assertions need. */
export function kinds(list: Envelope[]): Array<[string, string | undefined]> {
  return list.map((n) => [
    n.notification_type,
    (n.notification_data.state ?? n.notification_data.audit_status ?? undefined) as string | undefined,
  ]);
}

export async function ok(res: Response | Promise<Response>, status = 200): Promise<Json> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return text ? (JSON.parse(text) as Json) : {};
}

export async function seedItem(t: TestAgent, sku: string): Promise<number> {
  return (await ok(t.call("POST", ITEM, itemBody(sku)))).id as number;
}

/** Sets stock of an item named by its SKU (where that is a whole uniqueness group) or by pdfa_values. */
export async function setStock(
  t: TestAgent,
  location: string,
  msu: string,
  item: string | Json,
  quantity: number,
) {
  const name = typeof item === "string" ? { product_sku: item } : { pdfa_values: item };
  await ok(t.call("PUT", "/station/stock", { location, msu, ...name, quantity }));
}

export function pickLine(id: string, sku: string, qty: number, attributes?: Json): Json {
  return {
    externalServiceRequestId: id,
    type: "PICK_LINE",
    expectations: {
      containers: [
        {
          products: [
            { productQuantity: qty, productAttributes: { filter_parameters: [`product_sku = '${sku}'`] } },
          ],
        },
      ],
    },
    ...(attributes ? { attributes } : {}),
  };
}

export function pickBody(id: string, lines: Json[], attributes?: Json): Json {
  return {
    externalServiceRequestId: id,
    type: "PICK",
    serviceRequests: lines,
    ...(attributes ? { attributes } : {}),
  };
}

/**
 * A pick+pack order of one unit of `sku` whose line carries `attributes` (the shipping address, the box,
 * a carrier label URL), created and picked from slot `slot` of rack `msu` once the rack is presented: the
 * order's bin completes and its label goes to the printer. Resolves with `performance.now()` just before
 * the pick, the moment a label's verdict is timed from.
 */
export async function pickPackOne(
  t: TestAgent,
  id: string,
  attributes: Json,
  o: { sku?: string; msu?: string; slot?: string } = {},
): Promise<number> {
  const { sku = "PK", msu = "M3", slot = "S4" } = o;
  await ok(t.call("POST", SR, pickBody(id, [pickLine(`${id}-1`, sku, 1, attributes)])));
  await ok(t.call("POST", "/station/racks", { msu, locations: [slot] }));
  const at = performance.now();
  await ok(
    t.call("POST", "/station/picks", {
      externalServiceRequestId: id,
      line: `${id}-1`,
      location: slot,
      quantity: 1,
    }),
  );
  return at;
}

export function putBody(id: string, products: Array<[string, number]>, tote = "TOTE-1"): Json {
  return {
    externalServiceRequestId: id,
    type: "PUT",
    attributes: { tote_id: tote },
    expectations: {
      containers: [
        {
          products: products.map(([sku, q]) => ({
            productQuantity: q,
            productAttributes: { pdfa_values: { product_sku: sku } },
          })),
        },
      ],
    },
  };
}

export async function stockOf(t: TestAgent, location: string, itemId: number) {
  return t.agent.services.repos.stock.stockAt(location, itemId);
}
