/**
 * Capture at the seat (docs/capture.md#at-the-seat), through the station engine as a scanner and the
 * operator screen drive it: a pick of an item that needs its serial number and expiry date asks for
 * each after the item's scan, refuses a confirm before, a malformed value, an expired date and a serial
 * picked before, takes a typed value, and records the values in the pick's actuals; a GS1 barcode of an
 * item that carries them asks for nothing more.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { GS } from "../../../src/domain/gs1.js";
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

beforeAll(async () => {
  // the agent's clock: 2026-11-21 (an expiry of 261120 has passed)
  t = await startTestAgent({ ppsId: "7" });
  const serial = { product_sku: "SERIAL", serial_required: true, expiry_required: true };
  await ok(t.call("POST", ITEM, itemBody("SERIAL", { productAttributes: serial })));
  const gs1 = { product_sku: "GS1ITEM", serial_required: true, lot_required: true, expiry_required: true };
  await ok(
    t.call(
      "POST",
      ITEM,
      itemBody("GS1ITEM", { productAttributes: gs1, barcodeList: [{ barcode: "4006381333931" }] }),
    ),
  );
  await setStock(t, "S1", "M1", "SERIAL", 5);
  await setStock(t, "S2", "M1", "GS1ITEM", 5);
  await ok(t.call("POST", SR, pickBody("CAP-1", [pickLine("CAP-1-1", "SERIAL", 2)])));
  await ok(t.call("POST", SR, pickBody("CAP-2", [pickLine("CAP-2-1", "GS1ITEM", 2)])));
  await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t?.close());

/** A scan at seat front, a second later than the last (past the debounce window). */
async function scan(barcode: string) {
  t.clock.now += 1000;
  const res = await t.call("POST", "/station/scans", { seat: "front", barcode });
  return { status: res.status, body: (await res.json()) as Json };
}

async function refusedAs(barcode: string, reason: string) {
  const { status, body } = await scan(barcode);
  expect([status, body.code, body.details?.reason]).toEqual([409, "scan_refused", reason]);
}

const screen = async () => ok(t.call("GET", "/station/seats/front/screen"));

async function lastPicked(): Promise<Json> {
  const view = await ok(t.call("GET", `${SR}/CAP-1`));
  return view.actuals.containers.at(-1).products[0].productAttributes;
}

it("the item's scan lights the bin and the screen asks for the serial number", async () => {
  expect((await scan("BC-SERIAL")).body).toMatchObject({
    result: "done",
    did: "bin_lit",
    step: "pick_confirm",
  });
  const s = await screen();
  expect(s.instruction).toEqual({ key: "instruction.scan_serial", params: { sku: "SERIAL" } });
  expect(s.capture).toEqual({
    asked: "serial",
    ask: { key: "instruction.scan_serial", params: { sku: "SERIAL" } },
    values: [],
  });
});

it("refuses a confirm before the values are there, and a malformed serial; nothing changes", async () => {
  const n = new NotificationReader(t);
  await n.catchUp();
  await refusedAs("EXC-CONFIRM", "capture_first");
  await refusedAs("SN 1", "bad_serial");
  await refusedAs(`SN-${"1".repeat(18)}`, "bad_serial");
  expect(await n.next()).toEqual([]);
  expect((await screen()).capture.asked).toBe("serial");
});

it("takes the scanned serial, then refuses an expired date and takes a typed one", async () => {
  expect((await scan("SN-1")).body).toMatchObject({ result: "done", did: "captured", as: "capture" });
  expect((await screen()).instruction.key).toBe("instruction.scan_expiry");
  await refusedAs("261120", "expired");
  await refusedAs("261332", "bad_expiry");
  const typed = await ok(
    t.call("POST", "/station/seats/front/screen/actions", { type: "capture", value: "270500" }),
  );
  expect(typed).toMatchObject({ result: "done", did: "captured" });
  const s = await screen();
  expect(s.capture).toMatchObject({
    asked: null,
    ask: null,
    values: [
      { label: { key: "ui.capture_serial" }, value: "SN-1" },
      { label: { key: "ui.capture_expiry" }, value: "2027-05-31" },
    ],
  });
  expect(s.instruction).toMatchObject({
    key: "instruction.put_into_bin",
    params: { quantity: 1, sku: "SERIAL" },
  });
  // one unit per serial number: the numpad takes 1
  expect(s.keyin).toMatchObject({ item: "SERIAL", expected: 1, max: 1 });
});

it("one unit per serial: a key-in of 2 is refused, the confirm picks one with its values", async () => {
  const keyin = await t.call("POST", "/station/seats/front/keyin", { quantity: 2 });
  expect([keyin.status, ((await keyin.json()) as Json).details?.reason]).toEqual([409, "serial_per_unit"]);
  const n = new NotificationReader(t);
  await n.catchUp();
  expect((await scan("EXC-CONFIRM")).body).toMatchObject({
    result: "done",
    did: "picked",
    step: "pick_confirm",
  });
  const info = (await n.next()).find((e) => e.notification_type === "order_information");
  const product = info?.notification_data.actuals.containers.at(-1).products[0];
  expect(product).toMatchObject({ productQuantity: 1 });
  expect(product.productAttributes).toMatchObject({ serial_number: "SN-1", expiry_date: "2027-05-31" });
  expect(await lastPicked()).toMatchObject({ serial_number: "SN-1" });
  // the next unit: asked again
  expect((await screen()).capture.asked).toBe("serial");
});

it("refuses the same serial for the next unit, takes a GS1 label with both, and picks it", async () => {
  await refusedAs("SN-1", "serial_taken");
  expect((await scan("(21)SN-2(17)270615")).body).toMatchObject({ result: "done", did: "captured" });
  expect((await screen()).capture.asked).toBeNull();
  expect((await scan("EXC-CONFIRM")).body).toMatchObject({ did: "picked", step: "ready" });
  expect(await lastPicked()).toMatchObject({ serial_number: "SN-2", expiry_date: "2027-06-15" });
});

it("a GS1 DataMatrix of the item with an expired date lights nothing", async () => {
  await refusedAs(`]d2010400638133393121GS-0${GS}10LOT-A${GS}17261031`, "expired");
  expect((await screen()).step).toBe("ready");
});

it("a GS1 DataMatrix of the item with serial, lot and expiry asks for nothing more", async () => {
  const gs1 = `]d2010400638133393121GS-1${GS}10LOT-A${GS}17270500`;
  expect((await scan(gs1)).body).toMatchObject({ result: "done", did: "bin_lit", as: "item" });
  const s = await screen();
  expect(s.capture.asked).toBeNull();
  expect(s.capture.values.map((v: Json) => v.value)).toEqual(["GS-1", "LOT-A", "2027-05-31"]);
  const n = new NotificationReader(t);
  await n.catchUp();
  expect((await scan("EXC-CONFIRM")).body).toMatchObject({ did: "picked" });
  const info = (await n.next()).find((e) => e.notification_type === "order_information");
  expect(info?.notification_data.actuals.containers.at(-1).products[0].productAttributes).toMatchObject({
    pdfa_values: { product_sku: "GS1ITEM" },
    serial_number: "GS-1",
    lot: "LOT-A",
    expiry_date: "2027-05-31",
  });
});

it("the item's plain barcode while a value is asked is not taken as the value", async () => {
  await refusedAs("4006381333931", "capture_expected");
  expect((await scan("EXC-CANCEL")).body).toMatchObject({ did: "cancelled", step: "ready" });
});

it("a typed value is refused where nothing is asked", async () => {
  const res = await t.call("POST", "/station/seats/front/screen/actions", { type: "capture", value: "SN-9" });
  expect([res.status, ((await res.json()) as Json).details?.reason]).toEqual([409, "not_this_step"]);
});
