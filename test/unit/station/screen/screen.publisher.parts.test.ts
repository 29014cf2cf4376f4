/**
 * The publisher's parts (no agent): the fan-out sends a seat's state to its connected screens only when
 * it changed, and derives only seats with a screen; the last events are numbered across the station.
 */
import { describe, expect, it } from "vitest";
import { createScreenFanOut } from "../../../../src/station/screen/fan-out.js";
import { createLastEvents } from "../../../../src/station/screen/state/last-events.js";
import { READY } from "../../../../src/station/seat.types.js";

describe("screen fan-out", () => {
  it("sends the state at once, then only when it changed, to every screen of the seat", () => {
    const fan = createScreenFanOut();
    const a: string[] = [];
    const b: string[] = [];
    fan.subscribe(
      "front",
      (j) => a.push(j),
      () => "s1",
    );
    fan.subscribe(
      "front",
      (j) => b.push(j),
      () => "s1",
    );
    fan.send(() => "s1");
    expect([a, b]).toEqual([["s1"], ["s1"]]);
    fan.send(() => "s2");
    expect([a, b]).toEqual([
      ["s1", "s2"],
      ["s1", "s2"],
    ]);
  });

  it("derives only seats with a screen, and none after the last leaves or after clear", () => {
    const fan = createScreenFanOut();
    const derived: string[] = [];
    const json = (seat: string) => {
      derived.push(seat);
      return seat;
    };
    const off = fan.subscribe(
      "front",
      () => {},
      () => "x",
    );
    fan.subscribe(
      "back",
      () => {},
      () => "y",
    );
    fan.send(json);
    expect(derived.sort()).toEqual(["back", "front"]);
    off();
    fan.send(json);
    expect(derived.sort()).toEqual(["back", "back", "front"]);
    fan.clear();
    fan.send(json);
    expect(derived).toHaveLength(3);
  });
});

describe("screen last events", () => {
  const bins = [{ id: "1", state: "empty" as const, printState: "none" as const, completePut: null }];
  const seats = new Map([
    ["front", READY],
    ["back", READY],
  ]);

  it("numbers events across seats; a bin nobody had lit tells every seat; a dropped input none", () => {
    const events = createLastEvents({ seats: ["front", "back"], now: () => 0 });
    const scan = { kind: "scan" as const, barcode: "BC-A", source: "s" };
    events.record("front", scan, { result: "done", did: "bin_lit" }, seats, bins);
    expect(events.of("front")).toMatchObject({ seq: 1, text: "BC-A" });
    expect(events.of("back")).toBeNull();
    events.record("front", scan, { result: "debounced" }, seats, bins);
    expect(events.of("front")?.seq).toBe(1);
    const beam = { kind: "bin" as const, binId: "1", signal: "sensor" as const };
    events.record(null, beam, { result: "done", did: "binEmptied" }, seats, bins);
    expect([events.of("front")?.seq, events.of("back")?.seq]).toEqual([2, 3]);
    expect(events.of("back")).toMatchObject({ input: "beam", text: "1" });
  });
});
