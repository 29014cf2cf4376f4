/**
 * The screen state as a pure derivation (src/station/screen/state/state.ts): a table of rows, each a
 * station and a seat state, and what the screen must say and allow. The bins grid must equal the lights'
 * own derivation (bin-lights.ts), so screen and lights cannot disagree.
 */
import { describe, expect, it } from "vitest";
import { binLight, heldBySeats } from "../../../../src/station/bin-lights.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import type { ScreenInput } from "../../../../src/station/screen/state/types.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { COUNTING, PICKING, PUT_CONFIRM, PUT_SLOT, pick, put } from "../support.js";
import { BINS, pickRow, putRow, screenInput } from "./support.js";

const LINE = pickRow();
const bins = BINS;
const input = screenInput;

const TOTE_ITEM = putRow();
const AUDIT = {
  auditId: "AU1",
  kq: true,
  lines: [
    { auditLineId: "AU1-1", location: "S1", sku: "A", description: null, open: true },
    { auditLineId: "AU1-2", location: "S1", sku: "B", description: null, open: true },
  ],
};
const SCAN_EACH: SeatState = { step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 1 };
const complete = bins.map((b) => (b.id === "1" ? { ...b, state: "complete" as const } : b));

// [name, input, instruction key and params, allowed (subset)]
const rows: Array<[string, ScreenInput, string, object]> = [
  [
    "nobody logged in",
    input({ operator: null }),
    "login",
    { scan: "badge", login: true, logout: false, modes: [] },
  ],
  [
    "pick, nothing at all",
    input(),
    "no_work",
    { scan: "any", logout: true, modes: ["put", "audit"], confirm: false },
  ],
  ["pick, orders wait for a rack", input({ pickWaiting: true }), "waiting_rack", { logout: true }],
  [
    "pick, a rack with work",
    input({ racks: ["M1"], pickLines: [LINE] }),
    "scan_item_from_slot slot=S1",
    { confirm: false, keyin: false, exceptions: [] },
  ],
  [
    "pick, a bin lit",
    input({ pickLines: [LINE] }, PICKING),
    "put_into_bin quantity=3 sku=A bin=2",
    {
      confirm: true,
      keyin: true,
      cancel: true,
      logout: false,
      modes: [],
      exceptions: ["ITEM_MISSING", "PHYSICALLY_DAMAGED", "UNSCANNABLE", "BIN_FULL"],
    },
  ],
  [
    "pick, a scan-required bin lit",
    input({ pickLines: [LINE] }, SCAN_EACH),
    "scan_each_into_bin scanned=1 quantity=3",
    { confirm: false, keyin: false, cancel: true },
  ],
  ["pick, a complete bin", input({ bins: complete }), "empty_bin bin=1", { logout: true }],
  [
    "put, a staged tote",
    input({ mode: "put", puts: [TOTE_ITEM] }),
    "scan_tote_or_item",
    { confirm: false, modes: ["pick", "audit"] },
  ],
  [
    "put, the tote selected",
    input({ mode: "put", puts: [TOTE_ITEM] }, { step: "ready", tote: "U1" }),
    "scan_item_from_tote tote=T1",
    { cancel: true, logout: true },
  ],
  [
    "put, item scanned",
    input({ mode: "put", puts: [TOTE_ITEM] }, PUT_SLOT),
    "scan_slot_for_put quantity=2 sku=A",
    {
      confirm: false,
      keyin: true,
      exceptions: [
        "ITEM_MISSING",
        "PHYSICALLY_DAMAGED",
        "UNSCANNABLE",
        "EXCESS",
        "WAREHOUSE_FULL",
        "SPACE_UNAVAILABLE",
      ],
    },
  ],
  [
    "put, slot chosen",
    input({ mode: "put", puts: [TOTE_ITEM] }, PUT_CONFIRM),
    "put_into_slot slot=S9",
    { confirm: true, keyin: true },
  ],
  [
    "put at the back seat: the back_ exceptions",
    input({ seat: "back", mode: "put", seats: new Map([["back", PUT_SLOT]]) }),
    "scan_slot_for_put",
    { exceptions: ["PHYSICALLY_DAMAGED", "UNSCANNABLE", "EXCESS", "OVERSIZED", "WAREHOUSE_FULL"] },
  ],
  [
    "put, a scan-required item",
    input({ mode: "put" }, { ...PUT_SLOT, put: put({ scanRequired: true }) }),
    "scan_slot_for_put",
    { keyin: false },
  ],
  ["audit, none", input({ mode: "audit" }), "no_audit", { closeSlot: false }],
  [
    "audit, started",
    input({ mode: "audit", audit: AUDIT }),
    "scan_slot_to_count slot=S1",
    { closeSlot: false },
  ],
  [
    "audit, counting",
    input({ mode: "audit", audit: AUDIT }, COUNTING),
    "count_slot slot=S1",
    { closeSlot: true, confirm: false, keyin: true, exceptions: ["PHYSICALLY_DAMAGED", "UNSCANNABLE"] },
  ],
];

describe("screen state: instruction and allowed actions", () => {
  it.each(rows)("%s", (_, i, want, allowed) => {
    const s = deriveScreen(i);
    const [key, ...params] = want.split(" ");
    expect(s.instruction.key).toBe(`instruction.${key}`);
    for (const p of params) {
      const [k, v] = p.split("=");
      expect(String(s.instruction.params?.[k as string])).toBe(v);
    }
    expect(s.allowed).toMatchObject(allowed);
  });
});

describe("screen state: header", () => {
  it("names every device with its connection state (the page shows the ones that are down)", () => {
    const health = (id: string, connected: boolean) => ({
      id,
      kind: "scanner" as const,
      profile: "p",
      transport: "sim",
      connected,
      lastSeen: null,
      errors: connected ? 0 : 3,
      lastError: connected ? null : "no such file",
    });
    const s = deriveScreen(input({ devices: [health("scanner-front", false), health("ptl", true)] }));
    expect(s.devices).toEqual([
      { id: "scanner-front", kind: "scanner", connected: false, lastError: "no such file" },
      { id: "ptl", kind: "scanner", connected: true, lastError: null },
    ]);
    expect([s.site, s.ppsId, s.seat, s.mode, s.operator, s.lang]).toEqual([
      "dc1",
      "1",
      "front",
      "pick",
      "alice",
      "en",
    ]);
  });
});

describe("screen state: task and bins", () => {
  it("pick before a scan lists the reserved lines on the racks; after it, the lit one", () => {
    const before = deriveScreen(input({ racks: ["M1"], pickLines: [LINE] }));
    expect(before.task).toMatchObject({ kind: "pick", racks: ["M1"], current: null });
    // the row as read, with only the screen's own flag added
    expect(before.task?.kind === "pick" && before.task.lines).toEqual([{ ...LINE, lit: false }]);
    const after = deriveScreen(input({ pickLines: [LINE] }, SCAN_EACH));
    expect(after.task).toMatchObject({
      current: { sku: "A", quantity: 3, bin: "2", scanned: 1 },
      lines: [{ lit: true }],
    });
  });

  it("the bins grid is the lights' own derivation, for this seat's and other seats' work", () => {
    const seats = new Map<string, SeatState>([
      ["front", PICKING],
      ["back", { ...PUT_CONFIRM, put: put({ binId: "1" }) } as SeatState],
    ]);
    const s = deriveScreen(input({ seats, bins: complete }));
    const held = heldBySeats(seats.values());
    expect(s.bins.map((b) => b.light)).toEqual(complete.map((b) => binLight(b, held.bins.get(b.id))));
    expect(s.bins.map((b) => [b.id, b.mine])).toEqual([
      ["1", false],
      ["2", true],
      ["3", false],
    ]);
  });

  it("bin actions: empty a complete bin, release a complete tote, reprint a label that waits", () => {
    const list = [
      { id: "1", state: "complete" as const, printState: "none" as const, completePut: null },
      { id: "2", state: "put" as const, printState: "none" as const, completePut: "U1" },
      { id: "3", state: "complete" as const, printState: "waiting" as const, completePut: null },
    ];
    const s = deriveScreen(
      input({ bins: list, stationPrinting: true, printErrors: { "3": "printer offline" } }),
    );
    expect(s.bins.map((b) => [b.id, b.actions, b.printError])).toEqual([
      ["1", ["empty"], null],
      ["2", ["release"], null],
      ["3", ["reprint"], "printer offline"],
    ]);
  });

  it("audit: the slot's lines with the running count; nobody logged in: no task, the operators to tap", () => {
    const counting = {
      ...(COUNTING as Extract<SeatState, { step: "audit_count" }>),
      damaged: { "AU1-2": 1 },
    };
    const s = deriveScreen(input({ mode: "audit", audit: AUDIT }, counting));
    expect(s.task).toMatchObject({
      kind: "audit",
      slot: "S1",
      slotsLeft: ["S1"],
      lines: [
        { sku: "A", counted: 2, damaged: 0 },
        { sku: "B", counted: 0, damaged: 1 },
      ],
    });
    const out = deriveScreen(input({ operator: null, operators: ["alice", "bob"] }));
    expect([out.task, out.operators]).toEqual([null, ["alice", "bob"]]);
  });
});
