import { describe, expect, it } from "vitest";
import { binFullAsk, continuedSeats } from "../../../src/station/seat.bin-full.js";
import type { PickTarget, SeatState } from "../../../src/station/seat.types.js";

const pick = (more: Partial<PickTarget> = {}): PickTarget => ({
  externalServiceRequestId: "ORDER-1",
  line: "ORDER-1-1",
  location: "S1",
  itemId: 4,
  quantity: 5,
  binId: "1",
  ...more,
});
const lit = (p: PickTarget, scanned?: number): SeatState =>
  scanned === undefined ? { step: "pick_confirm", pick: p } : { step: "pick_confirm", pick: p, scanned };

describe("bin full at a seat", () => {
  it("asks to close the lit pick's bin; refused at any other step", () => {
    expect(binFullAsk(lit(pick()), "front")).toEqual({
      ok: true,
      ask: { externalServiceRequestId: "ORDER-1", ppsBinId: "1" },
    });
    expect(binFullAsk({ step: "ready", tote: null }, "front")).toMatchObject({
      ok: false,
      reason: "not_this_step",
    });
  });

  it("a scan-required pick's units scanned so far are picked into the full bin first", () => {
    const answer = binFullAsk(lit(pick({ scanRequired: true }), 2), "front");
    expect(answer).toEqual({
      ok: true,
      ask: {
        externalServiceRequestId: "ORDER-1",
        ppsBinId: "1",
        pick: {
          externalServiceRequestId: "ORDER-1",
          line: "ORDER-1-1",
          location: "S1",
          uid: "4",
          quantity: 2,
          seat: "front",
        },
      },
    });
  });

  it("the lit pick goes on into the new bin; the scanned units are off what is left to scan", () => {
    const states = new Map<string, SeatState>([
      ["front", lit(pick({ scanRequired: true }), 2)],
      ["back", lit(pick({ externalServiceRequestId: "ORDER-2", binId: "1", quantity: 1 }))],
      ["third", lit(pick({ externalServiceRequestId: "ORDER-3", binId: "2" }))],
    ]);
    const done = {
      closed: "1",
      moves: [
        { order: "ORDER-1", to: "3" },
        { order: "ORDER-2", to: "4" },
      ],
    };
    const changed = continuedSeats(states, done, { seat: "front", units: 2 });
    expect([...changed]).toEqual([
      ["front", lit(pick({ scanRequired: true, binId: "3", quantity: 3 }), 0)],
      ["back", lit(pick({ externalServiceRequestId: "ORDER-2", binId: "4", quantity: 1 }))],
    ]);
  });
});
