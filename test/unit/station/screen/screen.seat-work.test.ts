/**
 * Two seats at one station (docs/station.md#two-seats-one-station): a line one seat has lit is not
 * offered on the other seat's card, task list, instruction or problems; the seat that lit it still
 * shows it as its own.
 */
import { describe, expect, it } from "vitest";
import { nextPick } from "../../../../src/station/screen/state/operator.js";
import { seatWork } from "../../../../src/station/screen/state/seat-work.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { pick } from "../support.js";
import { pickRow, screenInput } from "./support.js";

const FIRST = pickRow();
const SECOND = pickRow({ order: "P2", line: "P2-L1", slot: "S2", itemId: 2, sku: "B", bin: "3" });
const LIT: SeatState = { step: "pick_confirm", pick: pick() };
const READY: SeatState = { step: "ready", tote: null };

function seats(front: SeatState, back: SeatState) {
  return new Map([
    ["front", front],
    ["back", back],
  ]);
}

describe("the work a seat's screen offers", () => {
  it("back does not see the line front has lit: its card takes the next one", () => {
    const s = deriveScreen(
      screenInput({ seat: "back", seats: seats(LIT, READY), racks: ["M1"], pickLines: [FIRST, SECOND] }),
    );
    expect(s.card).toMatchObject({ phase: "take", slot: "S2", bin: "3", line: 1, lines: 1 });
    expect(s.task?.kind === "pick" && s.task.lines.map((l) => l.order)).toEqual(["P2"]);
    expect(s.instruction).toEqual({
      key: "instruction.scan_item_from_slot",
      params: { slot: "S2", sku: "B", quantity: 3 },
    });
  });

  it("front still shows its lit line as its own", () => {
    const s = deriveScreen(
      screenInput({ seat: "front", seats: seats(LIT, READY), racks: ["M1"], pickLines: [FIRST, SECOND] }),
    );
    expect(s.card).toMatchObject({ phase: "put", slot: "S1", bin: "2" });
    expect(s.task?.kind === "pick" && s.task.lines.map((l) => [l.order, l.lit])).toEqual([
      ["P1", true],
      ["P2", false],
    ]);
  });

  it("with only the other seat's line, back has no work and no problem about it", () => {
    const s = deriveScreen(
      screenInput({ seat: "back", seats: seats(LIT, READY), racks: ["M1"], pickLines: [FIRST] }),
    );
    expect(s.card).toBeNull();
    expect(s.problems).toEqual([]);
    expect(s.instruction.key).toBe("instruction.no_work");
  });

  it("the line a problem before a scan is about is the seat's own next line", () => {
    const work = { seats: seats(LIT, READY), pickLines: [FIRST, SECOND] };
    expect(nextPick(seatWork({ seat: "back", ...work }))?.externalServiceRequestId).toBe("P2");
    expect(nextPick(seatWork({ seat: "front", ...work }))?.externalServiceRequestId).toBe("P1");
  });
});
