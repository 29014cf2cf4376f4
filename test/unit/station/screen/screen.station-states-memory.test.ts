/**
 * What the screen remembers of the station's states between reads (src/station/screen/station-states.ts),
 * on a real event bus: refused stagings (forgotten when the mode changes or the put is staged), work
 * dropped mid-line and bins central freed (until the seat's next input), and the rack visit's count.
 */
import { afterAll, describe, expect, it } from "vitest";
import { EventBus } from "../../../../src/events.js";
import { createStationStates } from "../../../../src/station/screen/station-states.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { PICKING } from "../support.js";
import { pickRow } from "./support.js";

const READY: SeatState = { step: "ready", tote: null };
const seats = (front: SeatState) =>
  new Map([
    ["front", front],
    ["back", READY],
  ]);

describe("the screen's memory of the station's states", () => {
  const bus = new EventBus();
  let putState = "created";
  const states = createStationStates({
    bus,
    reads: { requestState: () => putState, sku: () => "TSHIRT", rackSlots: () => ["M1-A1", "M1-C3"] },
    station: { seats: ["front", "back"] },
  });
  let changes = 0;
  states.start(() => changes++, seats(READY));
  afterAll(() => states.stop());

  it("a refused staging is kept while the mode holds; staged after all, or another mode, it is gone", () => {
    bus.emit("stageFailed", {
      externalServiceRequestId: "T7",
      tote: "TOTE-7",
      bin: "2",
      codes: ["pps_mode_incorrect"],
      mode: "pick",
    });
    expect(changes).toBe(1);
    expect(states.of("front", "pick", [], []).stageFailures).toEqual([
      { put: "T7", tote: "TOTE-7", bin: "2", codes: ["pps_mode_incorrect"], mode: "pick" },
    ]);
    putState = "created";
    bus.emit("request", { type: "PUT", externalServiceRequestId: "T7" });
    expect(states.of("front", "pick", [], []).stageFailures).toHaveLength(1);
    putState = "staged";
    bus.emit("request", { type: "PUT", externalServiceRequestId: "T7" });
    expect(states.of("front", "pick", [], []).stageFailures).toEqual([]);
    bus.emit("stageFailed", {
      externalServiceRequestId: "T8",
      tote: null,
      bin: "3",
      codes: ["pps_mode_incorrect"],
      mode: "pick",
    });
    expect(states.of("front", "put", [], []).stageFailures).toEqual([]);
    expect(states.of("front", "pick", [], []).stageFailures).toEqual([]);
  });

  it("work dropped mid-line shows on its seat until that seat's next input", () => {
    putState = "cancelled";
    states.record(
      "front",
      { kind: "scan", barcode: "BC-A", source: "s" },
      { seat: "front", result: "done" },
      seats(PICKING),
    );
    states.record(
      "front",
      { kind: "changed" },
      { seat: "front", result: "done", did: "dropped" },
      seats(READY),
    );
    expect(states.of("front", "pick", [], []).dropped).toMatchObject({
      kind: "pick",
      request: "P1",
      sku: "TSHIRT",
      slot: "S1",
    });
    expect(states.of("back", "pick", [], []).dropped).toBeNull();
    states.record("back", { kind: "keyin", quantity: 1 }, { seat: "back", result: "done" }, seats(READY));
    expect(states.of("front", "pick", [], []).dropped).not.toBeNull();
    states.record(
      "front",
      { kind: "scan", barcode: "X", source: "s" },
      { seat: "front", result: "refused" },
      seats(READY),
    );
    expect(states.of("front", "pick", [], []).dropped).not.toBeNull();
    states.record(
      "front",
      { kind: "scan", barcode: "M1", source: "s" },
      { seat: "front", result: "done" },
      seats(READY),
    );
    expect(states.of("front", "pick", [], []).dropped).toBeNull();
  });

  it("a bin central freed shows on every seat until each seat's next input", () => {
    bus.emit("binReleased", { binId: "4", requests: ["P9"] });
    expect(states.of("front", "pick", [], []).releasedBins).toEqual([{ bin: "4", orders: ["P9"] }]);
    states.record("front", { kind: "keyin", quantity: 1 }, { seat: "front", result: "done" }, seats(READY));
    expect(states.of("front", "pick", [], []).releasedBins).toEqual([]);
    expect(states.of("back", "pick", [], []).releasedBins).toEqual([{ bin: "4", orders: ["P9"] }]);
  });

  it("counts the lines done over the racks' visit, and reads the racks' slots once until the racks change", () => {
    const rows = [pickRow({ line: "L1" }), pickRow({ line: "L2" })];
    expect(states.of("front", "pick", ["M1"], rows)).toMatchObject({
      pickDone: 0,
      rackSlots: ["M1-A1", "M1-C3"],
    });
    expect(states.of("front", "pick", ["M1"], rows.slice(1)).pickDone).toBe(1);
    expect(states.of("front", "pick", ["M2"], rows.slice(1)).pickDone).toBe(0);
  });
});
