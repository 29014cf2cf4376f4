import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StationEngine } from "../../../src/station/engine.js";
import type { TestAgent } from "../../support/agent.js";
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
import { type EngineRig, sleep, startEngineRig, tick } from "./engine-setup.js";
import type { FakeHub } from "./fake-hub.js";

let rig: EngineRig;
let t: TestAgent;
let n: NotificationReader;
let hub: FakeHub;
let engine: StationEngine;
const later = () => rig.later();

beforeAll(async () => {
  rig = await startEngineRig();
  ({ t, hub, engine } = rig);
  n = new NotificationReader(t);
  for (const sku of ["A", "B", "C"]) await seedItem(t, sku);
  await setStock(t, "S1", "M1", "A", 10);
  await setStock(t, "S2", "M1", "B", 5);
  await setStock(t, "S3", "M2", "C", 4);
});
afterAll(async () => rig.close());

describe("engine shell over a hub: a pick by scans, buttons and beams", () => {
  it("lights every bin off at start", () => {
    expect(hub.since(0)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"].map((b) => `off ${b}`));
  });

  it("badge, rack, item → lit bin; button → pick; beam → complete; button on the complete bin empties it", async () => {
    await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-L1", "A", 3), pickLine("P1-L2", "B", 2)])));
    await n.catchUp();
    const bin = (await ok(t.call("GET", "/station/state"))).pickQueue[0].ppsBinId as string;
    let mark = hub.sent.length;

    hub.scan("M1"); // nobody logged in: refused, signalled on the IRT bin, which then shows what it did
    await sleep(40);
    expect(hub.since(mark)).toEqual(["error IRT", "off IRT"]);
    hub.scan("BADGE-alice");
    later();
    hub.scan("M1");
    expect(kinds(await n.next())).toEqual([["order_information", "cancellation_locked"]]);

    later();
    mark = hub.sent.length;
    hub.scan("BC-A");
    expect(hub.since(mark)).toEqual([`show ${bin} green 3`]);
    expect(hub.press(bin)).toBe(true);
    expect(hub.showing(bin)).toBe("off");
    expect(kinds(await n.next())).toEqual([["order_information", "pick_started"]]);

    later();
    hub.scan("BC-B");
    expect(hub.showing(bin)).toBe("green 2");
    hub.beam(`beam-${bin}`);
    expect(kinds(await n.next())).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(hub.showing(bin)).toBe("green blink");
    hub.press(bin);
    expect(hub.showing(bin)).toBe("off");
    expect(
      (await ok(t.call("GET", "/station/state"))).bins.find((b: { ppsBinId: string }) => b.ppsBinId === bin),
    ).toMatchObject({ state: "empty" });
  });
});

describe("engine shell: debounce, refusals, work changed elsewhere, two seats", () => {
  it("a scanner delivering one scan twice lights once; after the window the same scan counts", async () => {
    await ok(t.call("POST", SR, pickBody("P2", [pickLine("P2-L1", "C", 2)])));
    later();
    hub.scan("M2");
    await tick();
    const bin = (await ok(t.call("GET", "/station/state"))).pickQueue[0].ppsBinId as string;
    later();
    const mark = hub.sent.length;
    hub.scan("BC-C");
    t.clock.now += 50;
    hub.scan("BC-C"); // double delivery: dropped, not refused (no error signal)
    expect(hub.since(mark)).toEqual([`show ${bin} green 2`]);
    expect(engine.scan("front", "EXC-CANCEL", "scanner-front")).toMatchObject({
      result: "done",
      did: "cancelled",
    });
    expect(hub.showing(bin)).toBe("off");
    t.clock.now += 50;
    hub.scan("BC-C"); // a deliberate repeat after another code counts
    expect(hub.showing(bin)).toBe("green 2");
  });

  it("a wrong scan signals on the lit bin and changes nothing", async () => {
    const bin = (await ok(t.call("GET", "/station/state"))).pickQueue[0].ppsBinId as string;
    later();
    const mark = hub.sent.length;
    const out = engine.scan("front", "NOT-A-CODE");
    expect(out).toMatchObject({ result: "refused", reason: "unknown_barcode", step: "pick_confirm" });
    await sleep(40);
    expect(hub.since(mark)).toEqual([`error ${bin}`, `show ${bin} green 2`]);
    expect(engine.seats().find((s) => s.seat === "front")).toMatchObject({ step: "pick_confirm" });
  });

  it("the other seat is not offered work already lit at one seat: refused on its own signal, never on that bin", async () => {
    await ok(t.call("POST", "/station/seats/back/login", { user: "bob" }));
    const bin = (await ok(t.call("GET", "/station/state"))).pickQueue[0].ppsBinId as string;
    later();
    const mark = hub.sent.length;
    expect(engine.scan("back", "BC-C")).toMatchObject({ result: "refused", reason: "other_seat" });
    await sleep(40);
    // the station's signal light (the IRT bin's), never the bin the other seat's work lit
    expect(hub.since(mark)).toEqual(["error IRT", "off IRT"]);
    expect(hub.showing(bin)).toBe("green 2");
  });

  it("work picked elsewhere (station API) drops the pending pick and its light", async () => {
    const bin = (await ok(t.call("GET", "/station/state"))).pickQueue[0].ppsBinId as string;
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "P2",
        line: "P2-L1",
        location: "S3",
        quantity: 2,
      }),
    );
    await tick();
    expect(engine.seats().find((s) => s.seat === "front")).toMatchObject({ step: "ready" });
    expect(hub.showing(bin)).toBe("green blink"); // now complete: take it away
    hub.press(bin);
    expect(hub.showing(bin)).toBe("off");
  });

  it("the IRT bin's button and beam are known as the IRT bin's and change nothing", () => {
    const mark = hub.sent.length;
    hub.emit({ type: "button", deviceId: "ptl", address: "IRT", button: "confirm", at: t.clock.now });
    expect(engine.last()).toEqual({ seat: null, result: "ignored", as: "irt", calls: [] });
    hub.beam("beam-IRT");
    expect(engine.last()).toEqual({ seat: null, result: "ignored", as: "irt", calls: [] });
    hub.emit({ type: "button", deviceId: "ptl", address: "99", button: "confirm", at: t.clock.now });
    expect(engine.last()).toBeNull(); // a button of no bin is not the engine's
    expect(hub.sent.length).toBe(mark);
  });
});
