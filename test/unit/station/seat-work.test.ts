/**
 * The pick work a seat has lit, kept across a restart (docs/station.md#after-a-restart): what is kept of
 * a seat's state, how many units the line's picked count says were recorded, and what the screen says.
 */
import { describe, expect, it } from "vitest";
import type { LitWork } from "../../../src/domain/seat-work.js";
import { restartOf } from "../../../src/station/screen/state/restart.js";
import { litWorkOf, lostWork } from "../../../src/station/seat-work.js";
import { screenInput } from "./screen/support.js";
import { PICKING, PUT_SLOT, pick } from "./support.js";

const LIT: LitWork = {
  order: "ORDER-1",
  line: "ORDER-1-1",
  slot: "S1",
  bin: "2",
  itemId: 1,
  quantity: 3,
  scanned: 0,
  pickedBefore: 4,
};

describe("lit work across a restart", () => {
  it("a lit pick is kept with its units scanned; nothing else is", () => {
    expect(litWorkOf(PICKING)).toEqual({
      order: "P1",
      line: "P1-L1",
      slot: "S1",
      bin: "2",
      itemId: 1,
      quantity: 3,
      scanned: 0,
    });
    expect(litWorkOf({ step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 2 })?.scanned).toBe(
      2,
    );
    expect(litWorkOf(PUT_SLOT)).toEqual({
      kind: "put",
      order: "U1",
      line: "A",
      slot: "",
      bin: "3",
      itemId: 1,
      quantity: 2,
      scanned: 0,
      tote: "T1",
    });
    expect(litWorkOf({ step: "ready", tote: null })).toBeNull();
  });

  it.each([
    ["nothing picked since it was lit", 4, 0],
    ["two of three picked", 6, 2],
    ["all picked (the restart came after the pick committed)", 7, 3],
    ["the line gone (picked count read as 0)", 0, 0],
    ["more picked elsewhere: never above the lit quantity", 12, 3],
  ])("recorded: %s", (_name, pickedNow, recorded) => {
    expect(lostWork(LIT, pickedNow).recorded).toBe(recorded);
  });

  it("the screen says what was recorded and what to do with the units that were not", () => {
    const r = restartOf(screenInput({ restart: lostWork(LIT, 6) }));
    expect(r).toEqual({
      text: {
        key: "restart.recorded",
        params: { recorded: 2, quantity: 3, order: "ORDER-1", line: "ORDER-1-1" },
      },
      todo: { key: "restart.todo_back", params: { left: 1, slot: "S1", bin: "2" } },
      recorded: 2,
      quantity: 3,
    });
    expect(restartOf(screenInput({ restart: lostWork(LIT, 7) }))?.todo).toEqual({
      key: "restart.todo_none",
      params: { bin: "2", quantity: 3 },
    });
    expect(restartOf(screenInput())).toBeNull();
  });

  it("a put: the units of the item from the tote recorded, the others back into the tote", () => {
    const put: LitWork = {
      ...LIT,
      kind: "put",
      order: "U1",
      line: "A",
      slot: "",
      tote: "T1",
      pickedBefore: 0,
    };
    expect(restartOf(screenInput({ restart: lostWork(put, 1) }))).toEqual({
      text: { key: "restart.recorded_put", params: { recorded: 1, quantity: 3, sku: "A", tote: "T1" } },
      todo: { key: "restart.todo_put_back", params: { left: 2, bin: "2" } },
      recorded: 1,
      quantity: 3,
    });
  });
});
