/**
 * The parts of the screen state for an operator at arm's length, as pure derivations
 * (src/station/screen/state/operator.ts, face.ts, version.ts): the task card and the slot's place on
 * the rack face, the problems (also before a scan), the alert and its expiry, the bins' error signal
 * and outcome, notices, the numpad's limit, the sound, and the version's bump rule.
 */
import { describe, expect, it } from "vitest";
import type { ScreenPickRow } from "../../../../src/domain/screen-rows.js";
import { faceOf, slotPlace } from "../../../../src/station/screen/state/face.js";
import { printCause } from "../../../../src/station/screen/state/operator.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import type { ScreenInput } from "../../../../src/station/screen/state/types.js";
import { FIRST, nextVersion } from "../../../../src/station/screen/state/version.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { PICKING, PUT_CONFIRM, PUT_SLOT } from "../support.js";
import { BINS, pickRow, putRow, screenInput } from "./support.js";

const row = (over: Partial<ScreenPickRow> = {}) => pickRow({ slot: "M1-B3", ...over });
const bins = BINS;

/** A pick station with rack M1 presented and station printing, at 10 s on the clock. */
function input(
  over: Partial<ScreenInput> = {},
  seat: SeatState = { step: "ready", tote: null },
): ScreenInput {
  return screenInput({ stationPrinting: true, racks: ["M1"], now: 10_000, ...over }, seat);
}

const device = (id: string, kind: "scanner" | "ptl-controller" | "printer", connected: boolean) => ({
  id,
  kind,
  profile: "x",
  transport: "sim",
  connected,
  lastSeen: null,
  errors: 0,
  lastError: connected ? null : "gone",
});

describe("the slot's place on the rack face", () => {
  it("reads <rack>-<row letter><column>; any other id has no place", () => {
    expect(slotPlace("M1-A1")).toEqual({ rack: "M1", row: 1, col: 1 });
    expect(slotPlace("MSU7-C12")).toEqual({ rack: "MSU7", row: 3, col: 12 });
    for (const id of ["S1", "S50", "B-1", "S-2", "A1", "M1-a1", "M1-A0", "M1-AB1", "M1-A123"])
      expect(slotPlace(id), id).toBeNull();
  });

  it("sizes the face by the known slots of the same rack", () => {
    expect(faceOf("M1-B2", ["M1-D1", "M1-A5", "M2-Z9", "S1"])).toEqual({ rows: 4, cols: 5, row: 2, col: 2 });
    expect(faceOf("M1-B2", [])).toEqual({ rows: 2, cols: 2, row: 2, col: 2 });
    expect(faceOf("S50", ["M1-A1"])).toBeNull();
  });
});

describe("the task card", () => {
  it("before a scan: take the next line from its slot, line 1 of n, the bin and its light's colour", () => {
    const next = row();
    const s = deriveScreen(input({ pickLines: [next, row({ line: "P1-L2", slot: "M1-C4", sku: "B" })] }));
    expect(s.card).toEqual({
      phase: "take",
      row: next,
      slot: "M1-B3",
      face: { rows: 3, cols: 4, row: 2, col: 3 },
      quantity: 3,
      line: 1,
      lines: 2,
      bin: "2",
      binColor: null,
    });
  });

  it("after the scan: put into the lit bin, in the colour its light shows; an unknown slot form has no face", () => {
    const lit = PICKING;
    const lines = [row({ line: "P0", slot: "S0" }), row({ slot: "S1" })];
    const s = deriveScreen(input({ pickLines: lines }, lit));
    expect(s.card).toMatchObject({ phase: "put", slot: "S1", face: null, line: 2, lines: 2, bin: "2" });
    expect(s.card?.row).toBe(lines[1]);
    expect(s.card?.binColor).toBe("green");
  });

  it("after the scan of a line the read does not list: where and how many, no row", () => {
    const s = deriveScreen(input({ pickLines: [row({ line: "P0", slot: "S0" })] }, PICKING));
    expect(s.card).toMatchObject({ phase: "put", row: null, slot: "S1", quantity: 3, line: 1, bin: "2" });
    expect(s.task).toMatchObject({ kind: "pick", current: null });
  });

  it("put: at the chosen slot; a suggested one before (screen.put-slot.test.ts); none in audit or logged out", () => {
    const item = putRow({ description: "item A" });
    const other = putRow({ itemId: 2, sku: "B" });
    const s = deriveScreen(input({ mode: "put", puts: [other, item] }, PUT_CONFIRM));
    expect(s.card).toMatchObject({ phase: "put", row: item, slot: "S9", quantity: 2, line: 2, lines: 2 });
    expect(deriveScreen(input({ mode: "put" }, PUT_SLOT)).card).toMatchObject({ suggested: true, slot: "" });
    expect(deriveScreen(input({ mode: "audit" })).card).toBeNull();
    expect(deriveScreen(input({ operator: null, pickLines: [row()] })).card).toBeNull();
  });
});

describe("problems", () => {
  it("before any scan: an empty slot, too few (nothing keyed in), or the wrong item, about the next line", () => {
    const s = deriveScreen(input({ pickLines: [row()] }));
    expect(s.problems.map((p) => [p.kind, p.max, p.default])).toEqual([
      ["missing", 3, 3],
      ["short", 3, 0],
      ["wrong_slot", 3, 3],
    ]);
    expect(s.problems.find((p) => p.kind === "short")?.ask).toEqual({ key: "problem.ask.short" });
    expect(s.problems[0]?.destination).toEqual({ key: "problem.to.nothing" });
  });

  it("a lit pick: missing, damaged, short up to what is left; damaged units go to the damage bin", () => {
    const s = deriveScreen(input({ pickLines: [row()], damageBin: "DMG-1" }, { ...PICKING }));
    expect(s.problems.map((p) => p.kind)).toEqual(["missing", "damaged", "short"]);
    expect(s.problems.find((p) => p.kind === "damaged")).toEqual({
      kind: "damaged",
      label: { key: "problem.damaged" },
      max: 3,
      default: 3,
      ask: { key: "problem.ask.damaged" },
      destination: { key: "problem.to.damage_bin", params: { bin: "DMG-1" } },
      replaces: "PHYSICALLY_DAMAGED",
    });
    const noBin = deriveScreen(input({}, PICKING)).problems.find((p) => p.kind === "damaged");
    expect(noBin?.destination).toEqual({ key: "problem.to.slot" });
    // too few opens with nothing keyed in and asks for the missing units
    expect(s.problems.find((p) => p.kind === "short")).toMatchObject({
      max: 3,
      default: 0,
      ask: { key: "problem.ask.short" },
    });
  });

  it("put: the seat's side's states; extra units are bounded, not by what is left", () => {
    const front = deriveScreen(input({ mode: "put" }, PUT_SLOT)).problems;
    expect(front.map((p) => p.kind)).toEqual(["missing", "damaged", "extra", "wrong_slot"]);
    expect(front.find((p) => p.kind === "extra")).toMatchObject({ max: 999, default: 1 });
    const back = deriveScreen(input({ mode: "put", seat: "back", seats: new Map([["back", PUT_SLOT]]) }));
    expect(back.problems.map((p) => p.kind)).toEqual(["damaged", "extra"]);
  });

  it("none logged out, none with nothing to pick", () => {
    expect(deriveScreen(input({ operator: null, pickLines: [row()] })).problems).toEqual([]);
    expect(deriveScreen(input()).problems).toEqual([]);
  });
});

describe("the alert and the bins' error signal", () => {
  const refusal = {
    reason: "not_expected",
    code: "4006381333931",
    item: { sku: "A", description: "item A" },
    signalBin: "2",
    until: 11_500,
  };

  it("takes over with the reason in words, the code, the item and what to do instead, until it expires", () => {
    const s = deriveScreen(input({ refusal, now: 10_000 }));
    expect(s.alert).toEqual({
      kind: "refused",
      reason: { key: "refusal.not_expected" },
      code: "4006381333931",
      item: "item A · A",
      instead: { key: "instead.not_expected" },
      until: 11_500,
    });
    expect(s.bins.find((b) => b.id === "2")?.signal).toBe("error");
    expect(s.bins.find((b) => b.id === "1")?.signal).toBeNull();
    const later = deriveScreen(input({ refusal, now: 11_500 }));
    expect(later.alert).toBeNull();
    expect(later.bins.every((b) => b.signal === null)).toBe(true);
  });

  it("an unknown reason is never shown raw; an unlit bin's press names the lit one", () => {
    const raw = deriveScreen(input({ refusal: { ...refusal, reason: "EXC-ITEM_MISSING" } }));
    expect(raw.alert?.reason).toEqual({ key: "refusal.other" });
    expect(raw.alert?.instead).toEqual({ key: "instead.other" });
    const press = { ...refusal, reason: "bin_not_lit", code: null, item: null, bin: "3", lit: "2" };
    expect(deriveScreen(input({ refusal: press })).alert?.reason).toEqual({
      key: "alert.bin_not_lit",
      params: { bin: "3", lit: "2" },
    });
    expect(deriveScreen(input({ refusal: { ...press, lit: null } })).alert?.reason).toEqual({
      key: "alert.bin_not_lit_none",
      params: { bin: "3" },
    });
  });
});

describe("bin outcome and sound", () => {
  const done = bins.map((b) => (b.id === "2" ? { ...b, state: "complete" as const } : b));
  const event = {
    seq: 4,
    at: "2026-01-01T00:00:00.000Z",
    input: "button" as const,
    text: "2",
    result: "done" as const,
    did: "picked",
    tone: "complete" as const,
    message: { key: "did.picked" },
    bin: "2",
  };

  it("a complete bin is complete, one with an order settled short is short; the chord only for complete", () => {
    const complete = deriveScreen(
      input({
        bins: done,
        orders: { "2": [{ id: "P1", type: "PICK", state: "complete" }] },
        lastEvent: event,
      }),
    );
    expect(complete.bins.find((b) => b.id === "2")?.outcome).toBe("complete");
    expect(complete.sound).toEqual({ kind: "complete", at: Date.parse(event.at) });
    const short = deriveScreen(
      input({
        bins: done,
        orders: {
          "2": [
            { id: "P1", type: "PICK", state: "complete" },
            { id: "P2", type: "PICK", state: "abandoned" },
          ],
        },
        lastEvent: event,
      }),
    );
    expect(short.bins.find((b) => b.id === "2")?.outcome).toBe("short");
    expect(short.sound).toBeNull();
    expect(deriveScreen(input()).bins.every((b) => b.outcome === null)).toBe(true);
  });

  it("a refusal sounds the error tone", () => {
    const refused = { ...event, result: "refused" as const, tone: "refused" as const, bin: undefined };
    const { bin: _bin, ...noBin } = refused;
    expect(deriveScreen(input({ lastEvent: noBin })).sound).toEqual({
      kind: "error",
      at: Date.parse(event.at),
    });
  });
});

describe("notices and manual entry", () => {
  it("this seat's scanner down: type the code; another seat's scanner down: nothing", () => {
    const devices = [device("sc-front", "scanner", false), device("sc-back", "scanner", true)];
    const s = deriveScreen(input({ devices, scanners: ["sc-front"] }));
    expect(s.notices).toEqual([{ kind: "scanner_down", text: { key: "notice.scanner_down" } }]);
    expect(s.manualEntry).toBe(true);
    const other = deriveScreen(
      input({ devices: [device("sc-back", "scanner", false)], scanners: ["sc-front"] }),
    );
    expect(other.notices).toEqual([]);
    expect(other.manualEntry).toBe(false);
  });

  it("a light controller down names the bins to watch", () => {
    const s = deriveScreen(
      input({
        devices: [device("ptl", "ptl-controller", false)],
        binLights: { "1": "ptl", "2": "ptl", "3": "x" },
      }),
    );
    expect(s.notices).toEqual([
      {
        kind: "lights_down",
        text: { key: "notice.lights_down", params: { bins: "1, 2" } },
        bins: ["1", "2"],
      },
    ]);
  });

  it("a failed label in words, never the raw error, with reprint, skip and supervisor", () => {
    const s = deriveScreen(input({ printErrors: { "2": "spawn lp ENOENT" } }));
    expect(s.notices).toEqual([
      {
        kind: "printer_failed",
        text: { key: "notice.printer_not_installed", params: { bin: "2" } },
        bins: ["2"],
        actions: ["reprint", "skip", "supervisor"],
      },
    ]);
    expect(printCause("connect ECONNREFUSED 10.0.0.5:631")).toBe("no_answer");
    expect(printCause("the printer timed out after 30 s")).toBe("no_answer");
    expect(printCause("EEXIST: file already exists, mkdir '/x'")).toBe("failed");
    // the carrier's label: its causes are the carrier's, whatever words they use
    expect(printCause("the carrier's label could not be fetched: localhost:4 answered 404 Not Found")).toBe(
      "carrier",
    );
    expect(printCause("the carrier's label could not be fetched: no label within 10000 ms")).toBe("carrier");
    expect(printCause("the carrier served ZPL; the printer at this station takes PDF")).toBe(
      "carrier_format",
    );
    // the carrier's label printed and the packing slip did not: the printer's cause
    expect(printCause("the carrier's label printed; the packing slip did not: print job 3 timed out")).toBe(
      "no_answer",
    );
  });

  it("a label the agent refuses to print shows the agent's words: what cannot be printed and why", () => {
    const why = "the shipping address holds Chinese characters (北, 京), which the label cannot print";
    const s = deriveScreen(input({ printErrors: { "2": why } }));
    expect(s.notices).toEqual([
      {
        kind: "printer_failed",
        text: { key: "notice.printer_refused", params: { bin: "2", reason: why } },
        bins: ["2"],
        actions: ["reprint", "skip", "supervisor"],
      },
    ]);
    expect(printCause("the shipping address does not fit the label: 40 lines at 8 pt, room for 21")).toBe(
      "refused",
    );
    expect(printCause("the OLPN 'A' holds 'Ż' (U+017B): …")).toBe("refused");
    expect(
      printCause("the label font /x/DejaVuSans.ttf is missing: install Debian's fonts-dejavu-core"),
    ).toBe("refused");
  });
});

describe("the numpad", () => {
  it("knows the item, the expected quantity and the limit up front", () => {
    expect(deriveScreen(input({ pickLines: [row({ slot: "S1" })] }, PICKING)).keyin).toEqual({
      item: "A",
      expected: 3,
      max: 3,
      label: { key: "ui.numpad_item", params: { item: "A", expected: 3 } },
    });
    expect(deriveScreen(input({ mode: "put" }, PUT_SLOT)).keyin).toEqual({
      item: "A",
      expected: 5,
      max: 5,
      label: { key: "ui.numpad_item", params: { item: "A", expected: 5 } },
    });
    expect(deriveScreen(input()).keyin).toBeNull();
  });
});

describe("the version", () => {
  const s = (over: Partial<ScreenInput> = {}) => deriveScreen(input(over));

  it("grows for a change of the seat's state, not for an identical one", () => {
    const a = nextVersion(FIRST, s());
    expect(a.version).toBe(1);
    expect(nextVersion(a, s())).toBe(a);
    expect(nextVersion(a, s({ pickLines: [row()] })).version).toBe(2);
  });

  it("not for a device elsewhere or another seat's light; yes for this seat's own trouble and for an alert", () => {
    const a = nextVersion(FIRST, s({ scanners: ["sc-front"] }));
    const tick = s({ scanners: ["sc-front"], devices: [device("sc-back", "scanner", false)] });
    expect(nextVersion(a, tick).version).toBe(a.version);
    const otherSeat = new Map<string, SeatState>([
      ["front", { step: "ready", tote: null }],
      ["back", PICKING],
    ]);
    const lit = s({ scanners: ["sc-front"], seats: otherSeat });
    expect(lit.bins.find((b) => b.id === "2")?.light).toMatchObject({ mode: "show" });
    expect(nextVersion(a, lit).version).toBe(a.version);
    const mine = s({ scanners: ["sc-front"], devices: [device("sc-front", "scanner", false)] });
    expect(nextVersion(a, mine).version).toBe(a.version + 1);
    const refusal = { reason: "no_work", code: "X", item: null, signalBin: null, until: 20_000 };
    expect(nextVersion(a, s({ scanners: ["sc-front"], refusal })).version).toBe(a.version + 1);
  });
});
