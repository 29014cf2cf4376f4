import { describe, expect, it } from "vitest";
import { binLight, binPress, heldBySeats, sameLight } from "../../../src/station/bin-lights.js";
import { debounce, emptyDebounce } from "../../../src/station/debounce.js";
import { EXCEPTION_CODES, fixedMeaning, pickReason, putReason } from "../../../src/station/scan-codes.js";
import { PICKING, PUT_CONFIRM } from "./support.js";

describe("debounce: a repeated scan within the window is dropped", () => {
  const rows: Array<{ name: string; scans: Array<[string, string, number]>; kept: boolean[] }> = [
    {
      name: "double delivery",
      scans: [
        ["s1", "A", 0],
        ["s1", "A", 40],
      ],
      kept: [true, false],
    },
    {
      name: "repeat after the window",
      scans: [
        ["s1", "A", 0],
        ["s1", "A", 300],
      ],
      kept: [true, true],
    },
    {
      name: "another code in between",
      scans: [
        ["s1", "A", 0],
        ["s1", "B", 10],
        ["s1", "A", 20],
      ],
      kept: [true, true, true],
    },
    {
      name: "two scanners",
      scans: [
        ["s1", "A", 0],
        ["s2", "A", 10],
      ],
      kept: [true, true],
    },
    {
      name: "a stutter restarts the window",
      scans: [
        ["s1", "A", 0],
        ["s1", "A", 200],
        ["s1", "A", 400],
      ],
      kept: [true, false, false],
    },
  ];
  it.each(rows)("$name", ({ scans, kept }) => {
    let state = emptyDebounce();
    const got = scans.map(([source, value, at]) => {
      const d = debounce(state, { source, value, at }, 300);
      state = d.state;
      return !d.drop;
    });
    expect(got).toEqual(kept);
  });
  it("a window of 0 keeps every scan", () => {
    const first = debounce(emptyDebounce(), { source: "s", value: "A", at: 0 }, 0);
    expect(debounce(first.state, { source: "s", value: "A", at: 0 }, 0).drop).toBe(false);
  });
});

describe("fixed barcodes", () => {
  it.each([
    ["BADGE-alice", { kind: "badge", user: "alice" }],
    ["EXC-ITEM_MISSING", { kind: "exception", code: "ITEM_MISSING" }],
    ["EXC-CANCEL", { kind: "exception", code: "CANCEL" }],
    ["EXC-nope", { kind: "bad_code" }],
    ["BADGE-a b", { kind: "bad_code" }],
    ["0123456789012", null],
  ])("%s", (text, meaning) => {
    if (meaning === null) expect(fixedMeaning(text)).toBeNull();
    else expect(fixedMeaning(text)).toMatchObject(meaning);
  });

  it("every exception code is a pick or put exception on some side, or a control", () => {
    for (const code of EXCEPTION_CODES) {
      const known =
        pickReason(code) ??
        putReason(code, "front") ??
        putReason(code, "back") ??
        ["CANCEL", "CONFIRM", "UNDO", "BIN_FULL", "BOX_FULL"].includes(code);
      expect(known, code).toBeTruthy();
    }
  });
});

describe("bin lights", () => {
  const bin = { id: "2", state: "pick" as const, printState: "none" as const, completePut: null };
  it.each([
    ["work lit at a seat", bin, 3, { mode: "show", color: "green", quantity: 3 }],
    ["locked work stays dark", bin, undefined, { mode: "off" }],
    [
      "complete bin: take it away",
      { ...bin, state: "complete" as const },
      undefined,
      { mode: "show", color: "green", blink: true },
    ],
    [
      "pick+pack waiting for its label",
      { ...bin, state: "complete" as const, printState: "waiting" as const },
      undefined,
      { mode: "show", color: "yellow", blink: true },
    ],
    [
      "complete tote: release it",
      { ...bin, state: "put" as const, completePut: "U1" },
      undefined,
      { mode: "show", color: "green", blink: true },
    ],
    ["empty", { ...bin, state: "empty" as const }, undefined, { mode: "off" }],
  ])("%s", (_, b, held, want) => {
    expect(binLight(b, held)).toEqual(want);
  });

  it("a press on an unlit bin empties a complete one, releases a complete tote, else means nothing", () => {
    expect(binPress({ ...bin, state: "complete" })).toEqual({ op: "binEmptied", binId: "2" });
    expect(binPress({ ...bin, state: "put", completePut: "U1" })).toEqual({
      op: "release",
      externalServiceRequestId: "U1",
    });
    expect(binPress(bin)).toBeNull();
  });

  it("seats' pending work holds its bin and slot lights", () => {
    const held = heldBySeats([PICKING, PUT_CONFIRM]);
    expect([...held.bins]).toEqual([
      ["2", 3],
      ["3", 2],
    ]);
    expect([...held.slots]).toEqual([["S9", 2]]);
  });

  it("same light: off equals off; shown needs colour, quantity and blink alike", () => {
    expect(sameLight({ mode: "off" }, { mode: "off" })).toBe(true);
    expect(sameLight(undefined, { mode: "off" })).toBe(false);
    expect(
      sameLight({ mode: "show", color: "green", quantity: 1 }, { mode: "show", color: "green", quantity: 2 }),
    ).toBe(false);
  });
});
