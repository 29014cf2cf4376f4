/**
 * Capture over the station API (docs/capture.md#over-the-station-api): `POST /station/picks` of an
 * item that needs a serial and an expiry date takes them as `capture`, refuses each kind of bad value
 * with its status, code and field and changes nothing, and reports the values in the actuals of the
 * pick's order_information (docs/capture.md#in-the-actuals).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";
import {
  ITEM,
  type Json,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  SR,
  setStock,
} from "../../support/station.js";

let t: TestAgent;
let itemId: number;

const CAPTURED = { product_sku: "SERIAL", serial_required: true, expiry_required: true };

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  itemId = (await ok(t.call("POST", ITEM, itemBody("SERIAL", { productAttributes: CAPTURED })))).id as number;
  await ok(t.call("POST", ITEM, itemBody("PLAIN")));
  await setStock(t, "S1", "M1", "SERIAL", 10);
  await setStock(t, "S2", "M1", "PLAIN", 10);
  await ok(t.call("POST", SR, pickBody("CAP-1", [pickLine("CAP-1-1", "SERIAL", 3)])));
  await ok(t.call("POST", SR, pickBody("CAP-2", [pickLine("CAP-2-1", "PLAIN", 1)])));
  await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t?.close());

const pick = (quantity: number, capture?: Json) =>
  t.call("POST", "/station/picks", {
    externalServiceRequestId: "CAP-1",
    line: "CAP-1-1",
    location: "S1",
    quantity,
    seat: "front",
    ...(capture ? { capture } : {}),
  });

async function refusedWith(res: Response, status: number, code: string, path: string) {
  const body = (await res.json()) as { code: string; errors: Array<{ path: string }> };
  expect([res.status, body.code, body.errors[0]?.path]).toEqual([status, code, path]);
}

const cases: Array<[string, number, Json | undefined, number, string, string]> = [
  ["no capture at all", 1, undefined, 400, "validation_failed", "capture.serial"],
  ["no expiry", 1, { serial: "SN-1" }, 400, "validation_failed", "capture.expiry"],
  [
    "two units with one serial",
    2,
    { serial: "SN-1", expiry: "270500" },
    400,
    "validation_failed",
    "quantity",
  ],
  [
    "a serial with a space",
    1,
    { serial: "SN 1", expiry: "270500" },
    400,
    "validation_failed",
    "capture.serial",
  ],
  [
    "a serial of 21 characters",
    1,
    { serial: "S".repeat(21), expiry: "270500" },
    400,
    "validation_failed",
    "capture.serial",
  ],
  [
    "an expiry of month 13",
    1,
    { serial: "SN-1", expiry: "271301" },
    400,
    "validation_failed",
    "capture.expiry",
  ],
  ["an expiry passed yesterday", 1, { serial: "SN-1", expiry: "261120" }, 409, "expired", "capture.expiry"],
  [
    "an unknown capture member",
    1,
    { serial: "SN-1", expiry: "270500", colour: "red" },
    400,
    "validation_failed",
    "capture",
  ],
];

it.each(cases)("refuses %s, and nothing changes", async (_what, quantity, capture, status, code, path) => {
  const n = new NotificationReader(t);
  await n.catchUp();
  await refusedWith(await pick(quantity, capture), status, code, path);
  expect(await n.next()).toEqual([]);
  expect(t.agent.services.repos.stock.stockAt("S1", itemId)?.quantity).toBe(10);
});

it("picks one unit with its serial and expiry and reports them in the actuals", async () => {
  const n = new NotificationReader(t);
  await n.catchUp();
  await ok(pick(1, { serial: "SN-1", expiry: "270500" }));
  const sent = await n.next();
  const info = sent.find((e) => e.notification_type === "order_information");
  const container = info?.notification_data.actuals.containers.at(-1);
  expect(container.products[0].productAttributes).toEqual({
    pdfa_values: { product_sku: "SERIAL" },
    package_name: "each",
    package_count: 1,
    serial_number: "SN-1",
    expiry_date: "2027-05-31",
  });
  expect(t.agent.services.repos.stock.stockAt("S1", itemId)?.quantity).toBe(9);
});

it("refuses the same serial again with 409 serial_taken, and nothing changes", async () => {
  const n = new NotificationReader(t);
  await n.catchUp();
  await refusedWith(
    await pick(1, { serial: "SN-1", expiry: "270500" }),
    409,
    "serial_taken",
    "capture.serial",
  );
  expect(await n.next()).toEqual([]);
  await ok(pick(1, { serial: "SN-2", expiry: "2027-01-15" }));
});

it("an item that needs no capture ignores capture values", async () => {
  await ok(
    t.call("POST", "/station/picks", {
      externalServiceRequestId: "CAP-2",
      line: "CAP-2-1",
      location: "S2",
      quantity: 1,
      seat: "front",
      capture: { serial: "SN-1" },
    }),
  );
  const view = await ok(t.call("GET", `${SR}/CAP-2`));
  expect(view.actuals.containers[0].products[0].productAttributes).not.toHaveProperty("serial_number");
});
