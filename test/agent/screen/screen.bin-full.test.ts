/**
 * Bin full, box full over the operator screen's actions and the station API (docs/station.md#bin-full-box-full):
 * the lit pick's bin is closed, its order goes on in the next free bin, central is told in order
 * (docs/decisions.md#bin-full-box-full), and the lights show the bin to take away and the new one. With
 * no free bin it is refused in words and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import {
  kinds,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;
const ACTIONS = "/station/seats/front/screen/actions";

beforeAll(async () => {
  // three bins: with two orders in bins only one is free
  t = await startTestAgent({ ppsId: "7", station: { bins: ["1", "2", "3"] } });
  n = new NotificationReader(t);
  await seedItem(t, "A");
  await seedItem(t, "B");
  await setStock(t, "S1", "M1", "A", 10);
  await setStock(t, "S2", "M1", "B", 5);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

/** A tap at the seat, past the debounce window of the input before (the clock is the test's). */
async function tap(action: Record<string, unknown>, status = 200) {
  t.clock.now += 1000;
  return ok(t.call("POST", ACTIONS, action), status);
}

const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
type Light = {
  ppsBinId?: string;
  address: string;
  mode: string;
  color?: string;
  quantity?: number;
  blink?: boolean;
};
async function lights(): Promise<Record<string, string>> {
  const { lights } = (await ok(t.call("GET", "/station/sim/lights"))) as { lights: Light[] };
  const shown = lights.filter((l) => l.mode === "show");
  return Object.fromEntries(
    shown.map((l) => [
      l.ppsBinId ?? l.address,
      `${l.color}${l.blink ? " blink" : ""} ${l.quantity ?? ""}`.trim(),
    ]),
  );
}
const binsState = async () =>
  Object.fromEntries(
    ((await ok(t.call("GET", "/station/state"))).bins as Array<{ ppsBinId: string; state: string }>).map(
      (b) => [b.ppsBinId, b.state],
    ),
  );

describe("bin full at a lit pick", () => {
  it("closes the bin, the order goes on in the next free bin, lit; central gets the order's new bin", async () => {
    await ok(t.call("POST", SR, pickBody("ORDER-1", [pickLine("ORDER-1-1", "A", 3)])));
    await ok(t.call("POST", SR, pickBody("ORDER-2", [pickLine("ORDER-2-1", "B", 1)])));
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
    await tap({ type: "scan", barcode: "BC-A" });
    await tap({ type: "keyin", quantity: 1 });
    await tap({ type: "scan", barcode: "BC-A" });
    expect(await lights()).toEqual({ "1": "green 2" });
    await n.catchUp();

    const out = await tap({ type: "exception", code: "BIN_FULL" });
    expect(out).toMatchObject({
      result: "done",
      did: "bin_closed_full",
      step: "pick_confirm",
      calls: ["binFull"],
      params: { bin: "1", order: "ORDER-1", next: "3" },
    });
    const told = await n.next();
    expect(kinds(told)).toEqual([["order_information", "pick_started"]]);
    expect(told[0]?.notification_data.externalServiceRequestId).toBe("ORDER-1");
    expect(told[0]?.notification_data.attributes).toMatchObject({
      pps_bin_id: "3",
      closed_bins: [{ pps_bin_id: "1", units: 1 }],
    });
    // the closed bin blinks as one to take away; the lit pick's 2 go into bin 3
    expect(await lights()).toEqual({ "1": "green blink", "3": "green 2" });
    expect(await binsState()).toEqual({ "1": "complete", "2": "pick", "3": "pick" });
    const s = await screen();
    expect(s.lastEvent?.message).toEqual({
      key: "did.bin_closed_full",
      params: { bin: "1", order: "ORDER-1", next: "3" },
    });
    expect(s.lastEvent?.said).toEqual({ key: "exception.BIN_FULL" });

    // the rest is picked into the new bin: it is the one central hears complete
    await tap({ type: "confirm" });
    const done = await n.next();
    expect(kinds(done)).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(done[0]?.notification_data.attributes).toMatchObject({
      pps_bin_id: "3",
      closed_bins: [{ pps_bin_id: "1", units: 1 }],
    });
    expect(done[1]?.notification_data).toMatchObject({ ppsId: 7, ppsBinId: "3" });
    expect(await lights()).toEqual({ "1": "green blink", "3": "green blink" });
  });

  it("with no free bin it is refused in words, and nothing changes", async () => {
    await tap({ type: "scan", barcode: "BC-B" });
    expect(await lights()).toEqual({ "1": "green blink", "2": "green 1", "3": "green blink" });
    await n.catchUp();
    t.clock.now += 1000;
    const res = await t.call("POST", ACTIONS, { type: "exception", code: "BIN_FULL" });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { message: string; details: { reason: string } };
    expect([body.details.reason, body.message]).toEqual(["no_free_bin", "no free bin: empty a bin first"]);
    expect(await n.next()).toEqual([]);
    expect(await binsState()).toEqual({ "1": "complete", "2": "pick", "3": "complete" });
    const s = await screen();
    expect([s.step, s.alert?.reason, s.alert?.instead]).toEqual([
      "pick_confirm",
      { key: "refusal.no_free_bin" },
      { key: "instead.no_free_bin" },
    ]);
    // the lit bin shows the error signal, then its pick again
    const same = { "1": "green blink", "2": "green 1", "3": "green blink" };
    await until(
      "the lit pick's light back",
      async () => JSON.stringify(await lights()) === JSON.stringify(same),
    );
  });

  it("once a bin is emptied, the command barcode EXC-BIN_FULL closes the bin into it", async () => {
    await tap({ type: "empty", bin: "1" });
    await n.catchUp();
    const out = await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "EXC-BIN_FULL" }));
    expect(out).toMatchObject({ result: "done", params: { bin: "2", order: "ORDER-2", next: "1" } });
    const told = await n.next();
    expect(kinds(told)).toEqual([["order_information", "cancellation_locked"]]);
    expect(told[0]?.notification_data.attributes).toMatchObject({
      pps_bin_id: "1",
      closed_bins: [{ pps_bin_id: "2", units: 0 }],
    });
    expect(await lights()).toEqual({ "1": "green 1", "2": "green blink", "3": "green blink" });
  });

  it("is refused where no bin is lit", async () => {
    await tap({ type: "cancel" });
    t.clock.now += 1000;
    const res = await t.call("POST", ACTIONS, { type: "exception", code: "BIN_FULL" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: { reason: string } }).details.reason).toBe("not_this_step");
    expect(await binsState()).toEqual({ "1": "pick", "2": "complete", "3": "complete" });
  });

  it("a pick+pack order's box: 'Box full' is offered; the closed box gets its own OLPN, the last box the order's", async () => {
    await tap({ type: "empty", bin: "2" });
    await tap({ type: "empty", bin: "3" });
    const pack = { shipping_address: "Jane Roe\n1 Main St", packing_box_id: "BOX-9", order_number: "O-9" };
    await ok(t.call("POST", SR, pickBody("PACK-1", [pickLine("PACK-1-1", "A", 2, pack)])));
    await tap({ type: "scan", barcode: "BC-A" });
    const s = await screen();
    expect(s.allowed.exceptions).toContain("BOX_FULL");
    expect(s.allowed.exceptions).not.toContain("BIN_FULL");
    await tap({ type: "keyin", quantity: 1 });
    await tap({ type: "scan", barcode: "BC-A" });
    await n.catchUp();
    const out = await tap({ type: "exception", code: "BOX_FULL" });
    expect(out).toMatchObject({ did: "bin_closed_full", params: { bin: "2", order: "PACK-1", next: "3" } });
    const told = await n.next();
    expect(kinds(told)).toEqual([["order_information", "pick_started"]]);
    expect(told[0]?.notification_data.attributes).toMatchObject({
      pps_bin_id: "3",
      closed_bins: [{ pps_bin_id: "2", units: 1, olpn: "BOX-9-1" }],
    });
    // the closed box is taken away without waiting for a label
    expect(await lights()).toEqual({ "2": "green blink", "3": "green 1" });
    await tap({ type: "confirm" });
    const done = await n.next();
    expect(kinds(done)).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(done[0]?.notification_data.attributes).toMatchObject({
      olpn: "BOX-9",
      pps_bin_id: "3",
      closed_bins: [{ pps_bin_id: "2", units: 1, olpn: "BOX-9-1" }],
    });
    expect(done[1]?.notification_data).toMatchObject({ ppsBinId: "3" });
  });
});
