import { expect } from "vitest";
import type { TestAgent } from "../support/agent.js";
import {
  CORE,
  type Envelope,
  type Json,
  ok,
  pickBody,
  pickLine,
  SR,
  seedItem,
  setStock,
} from "../support/station.js";
import { startCentral } from "./support/central.js";

/** The pick request calls of the spec (Endpoints → Service requests) and the station's, by name. */
export function pickCalls(t: TestAgent) {
  return {
    create: (body: Json) => ok(t.call("POST", SR, body)),
    cancel: (id: string) => t.call("POST", `${SR}/cancel`, { externalServiceRequestId: id, type: "PICK" }),
    modify: (id: string, change: Json) =>
      t.call("POST", `${SR}/modify`, { externalServiceRequestId: id, type: "PICK", ...change }),
    get: (id: string) => ok(t.call("GET", `${SR}/${id}?type=PICK`)),
    printReady: (id: string) => t.call("POST", `${CORE}/orders/print_ready/${id}`),
    present: (msu: string, locations: string[]) => ok(t.call("POST", "/station/racks", { msu, locations })),
    gone: (msu: string) => ok(t.call("DELETE", `/station/racks/${msu}`)),
    pick: (id: string, line: string, location: string, quantity: number) =>
      t.call("POST", "/station/picks", { externalServiceRequestId: id, line, location, quantity }),
    exception: (id: string, line: string, quantity: number, reason: string, location?: string) =>
      t.call("POST", "/station/picks/exceptions", {
        externalServiceRequestId: id,
        line,
        quantity,
        reason,
        ...(location ? { location } : {}),
      }),
    empty: (bin: string) => t.call("POST", `/station/bins/${bin}/empty`),
    stock: (location: string, msu: string, sku: string, quantity: number) =>
      setStock(t, location, msu, sku, quantity),
    onHand: (location: string, itemId: number) => t.agent.services.repos.stock.stockAt(location, itemId),
  };
}

/** A modify line that changes only what it names. */
export function lineChange(id: string, change: { quantity?: number; filters?: string[] }): Json {
  const product: Json = {};
  if (change.quantity !== undefined) product.productQuantity = change.quantity;
  if (change.filters) product.productAttributes = { filter_parameters: change.filters };
  return { externalServiceRequestId: id, expectations: { containers: [{ products: [product] }] } };
}

/** The data of the order_information notifications in `list`, for the request `id`. */
export function orderInfos(list: Envelope[], id: string): Json[] {
  return list
    .filter(
      (n) =>
        n.notification_type === "order_information" && n.notification_data.externalServiceRequestId === id,
    )
    .map((n) => n.notification_data);
}

/**
 * The central's agent (station 7, reached over its socket, notifications read off its broker) with
 * items seeded and an operator at the front seat.
 */
export async function pickStation(skus: string[], overrides: Record<string, unknown> = {}) {
  const central = await startCentral(overrides);
  const t = central.t;
  const c = pickCalls(t);
  const item: Record<string, number> = {};
  for (const sku of skus) item[sku] = await seedItem(t, sku);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
  /** A request for `qty` of `sku` stocked at `slot` on `msu`, its rack presented: cancellation_locked. */
  async function locked(id: string, sku: string, slot: string, msu: string, qty: number, stock = qty) {
    await c.stock(slot, msu, sku, stock);
    await c.create(pickBody(id, [pickLine(`${id}-1`, sku, qty)]));
    await c.present(msu, [slot]);
    expect((await c.get(id)).state).toBe("cancellation_locked");
  }
  return { t, central, c, item, locked };
}
