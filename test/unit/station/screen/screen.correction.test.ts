/**
 * What a supervisor may correct at the seat right after a confirm (docs/station.md#undo): offered while
 * the last event is that confirm or a refused correction, with the slots or bins to choose from. Pure.
 */
import { describe, expect, it } from "vitest";
import type { LastConfirmed } from "../../../../src/domain/seat-correction.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import type { LastEvent } from "../../../../src/station/screen/state/types.js";
import { screenInput } from "./support.js";

const event = (over: Partial<LastEvent>): LastEvent => ({
  seq: 1,
  at: "2026-11-28T10:00:00.000Z",
  input: "button",
  text: "1",
  result: "done",
  did: "picked",
  tone: "good",
  message: { key: "did.picked" },
  ...over,
});
const pick: LastConfirmed = { kind: "pick", request: "O1", bin: "1", quantity: 1 };
const put: LastConfirmed = { kind: "put", request: "U1", uid: 3, slot: "S1", quantity: 2 };

describe("the correction offered after a confirm", () => {
  it("after a pick: the order's bin and the station's other bins", () => {
    const s = deriveScreen(screenInput({ lastEvent: event({}), lastConfirmed: pick }));
    expect(s.correction).toEqual({ kind: "pick", bin: "1", order: "O1", bins: ["2", "3"] });
  });

  it("after a put: the slot recorded and the other slots of the racks at the station", () => {
    const lastEvent = event({ did: "put", message: { key: "did.put" } });
    const s = deriveScreen(
      screenInput({ mode: "put", lastEvent, lastConfirmed: put, rackSlots: ["S1", "S2"] }),
    );
    expect(s.correction).toEqual({ kind: "put", slot: "S1", quantity: 2, slots: ["S2"] });
  });

  it("stays after a refused correction, goes with any other event, and with nobody logged in", () => {
    const refused = event({ result: "refused", did: undefined, message: { key: "refusal.same_bin" } });
    expect(deriveScreen(screenInput({ lastEvent: refused, lastConfirmed: pick })).correction?.kind).toBe(
      "pick",
    );
    const other = event({ result: "refused", did: undefined, message: { key: "refusal.no_work" } });
    expect(deriveScreen(screenInput({ lastEvent: other, lastConfirmed: pick })).correction).toBeNull();
    const lit = event({ did: "bin_lit", message: { key: "did.bin_lit" } });
    expect(deriveScreen(screenInput({ lastEvent: lit, lastConfirmed: pick })).correction).toBeNull();
    expect(
      deriveScreen(screenInput({ operator: null, lastEvent: event({}), lastConfirmed: pick })).correction,
    ).toBeNull();
    expect(deriveScreen(screenInput({ lastEvent: event({}), lastConfirmed: null })).correction).toBeNull();
  });
});
