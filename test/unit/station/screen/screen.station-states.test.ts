/**
 * Every state the station is in, on the seat's screen, and the texts an operator reads as words (pure:
 * src/station/screen/state/station-notices.ts, rack-visit.ts, event.ts `saidOf`, operator.ts): a refused
 * staging, work dropped mid-line, the link to central and the outbox, the card's "line n of m" over a
 * rack visit, one rack face grid per rack, the blind count's numpad, and the last event in words.
 */
import { describe, expect, it } from "vitest";
import { CATALOGUES, render } from "../../../../src/station/screen/messages/messages.js";
import { lastEventOf, saidOf } from "../../../../src/station/screen/state/event.js";
import { doneLines, nextVisit } from "../../../../src/station/screen/state/rack-visit.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import {
  droppedWork,
  linkNotices,
  OUTBOX_NEAR_FULL,
  stageFailureText,
} from "../../../../src/station/screen/state/station-notices.js";
import type { StageFailure } from "../../../../src/station/screen/state/station-types.js";
import type { Msg } from "../../../../src/station/screen/state/types.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { COUNTING, PICKING, PUT_CONFIRM, PUT_SLOT } from "../support.js";
import { BINS, pickRow, screenInput } from "./support.js";

const en = (m: Msg) => render("en", m.key, m.params);
const failure = (over: Partial<StageFailure> = {}): StageFailure => ({
  put: "TOTE-7",
  tote: "TOTE-7",
  bin: "2",
  codes: ["pps_mode_incorrect"],
  mode: "pick",
  ...over,
});

describe("a staging the station refused", () => {
  it("says in words which tote, why, and what to do; the mode decides the words", () => {
    expect(en(stageFailureText(failure()))).toBe(
      "Tote TOTE-7 could not be staged into bin 2: the station is in pick mode. Ask a supervisor to switch to Put",
    );
    expect(en(stageFailureText(failure({ mode: "audit" })))).toContain("the station is in audit mode");
    expect(en(stageFailureText(failure({ codes: ["pps_bin_not_empty"] })))).toContain("bin 2 is not empty");
    expect(en(stageFailureText(failure({ codes: ["pps_not_logged_in"] })))).toContain("nobody is logged in");
    expect(en(stageFailureText(failure({ codes: ["pps_bin_in_training"] })))).toContain(
      "the bin's seat is in training",
    );
    expect(en(stageFailureText(failure({ codes: ["x"], tote: null, put: "PUT-9" })))).toBe(
      "Tote PUT-9 could not be staged into bin 2: call a supervisor",
    );
  });

  it("is a notice on the seat while the station is in the mode it was refused in", () => {
    const s = deriveScreen(screenInput({ stageFailures: [failure()] }));
    expect(s.notices).toEqual([
      {
        kind: "stage_failed",
        text: { key: "notice.stage_wrong_mode_pick", params: { tote: "TOTE-7", bin: "2" } },
        bins: ["2"],
        actions: ["supervisor"],
      },
    ]);
    expect(deriveScreen(screenInput({ mode: "put", stageFailures: [failure()] })).notices).toEqual([]);
    const full = deriveScreen(
      screenInput({ mode: "put", stageFailures: [failure({ codes: ["pps_bin_not_empty"] })] }),
    );
    expect(full.notices.map((n) => n.kind)).toEqual(["stage_failed"]);
  });
});

describe("work dropped mid-line", () => {
  const reads = (state: string | null) => ({ requestState: () => state, sku: () => "TSHIRT" });

  it("a lit pick: what to do with the units taken, cancelled or changed", () => {
    const d = droppedWork(PICKING, reads("cancelled"));
    expect(d).toEqual({
      kind: "pick",
      request: "P1",
      cancelled: true,
      expired: false,
      sku: "TSHIRT",
      quantity: 3,
      slot: "S1",
      tote: null,
    });
    const s = deriveScreen(screenInput({ dropped: d }));
    expect(s.notices.map((n) => [n.kind, en(n.text)])).toEqual([
      ["work_dropped", "Order P1 was cancelled: put the units of TSHIRT you took back into slot S1"],
    ]);
    const expired = droppedWork(PICKING, reads("not_fulfillable"));
    expect(expired).toMatchObject({ cancelled: false, expired: true });
    expect(en(deriveScreen(screenInput({ dropped: expired })).notices[0]?.text as Msg)).toBe(
      "Order P1 passed its deadline and will not be picked: put the units of TSHIRT you took back into slot S1",
    );
    const changed = droppedWork(PICKING, reads("complete"));
    expect(changed).toMatchObject({ cancelled: false, expired: false });
    expect(en(deriveScreen(screenInput({ dropped: changed })).notices[0]?.text as Msg)).toContain(
      "was changed by central",
    );
  });

  it("a put and an audit; nothing pending, nothing held; nobody logged in, no notice", () => {
    const put = droppedWork(PUT_CONFIRM, reads("created"));
    expect(put).toMatchObject({
      kind: "put",
      request: "U1",
      tote: "T1",
      sku: "A",
      slot: "S9",
      cancelled: true,
    });
    expect(en(deriveScreen(screenInput({ dropped: put })).notices[0]?.text as Msg)).toBe(
      "Tote T1 was taken off the station: put the units of A you hold back into the tote",
    );
    expect(droppedWork(PUT_SLOT, reads("staged"))).toMatchObject({ slot: null, cancelled: false });
    expect(droppedWork(COUNTING, reads(null))).toMatchObject({ kind: "audit", slot: "S1" });
    expect(droppedWork({ step: "ready", tote: null }, reads(null))).toBeNull();
    expect(droppedWork(undefined, reads(null))).toBeNull();
    expect(deriveScreen(screenInput({ operator: null, dropped: put })).notices).toEqual([]);
  });
});

describe("devices the other notices do not name, and bins central freed", () => {
  const device = (
    id: string,
    kind: "scanner" | "ptl-controller" | "bin-sensor" | "printer",
    connected: boolean,
  ) => ({
    id,
    kind,
    profile: "x",
    transport: "sim",
    connected,
    lastSeen: null,
    errors: 0,
    lastError: connected ? null : "gone",
  });

  it("a printer down: labels wait, call a supervisor; up: nothing", () => {
    const down = deriveScreen(screenInput({ devices: [device("lp", "printer", false)] }));
    expect(down.notices).toEqual([
      { kind: "printer_down", text: { key: "notice.printer_down" }, actions: ["supervisor"] },
    ]);
    expect(deriveScreen(screenInput({ devices: [device("lp", "printer", true)] })).notices).toEqual([]);
  });

  it("buttons or sensors of their own down: the bins to confirm on the screen; a dark light says it already", () => {
    const input = (devices: ReturnType<typeof device>[]) =>
      screenInput({
        devices,
        binLights: { "1": "ptl", "2": "ptl" },
        binInputs: { "1": ["di"], "2": ["ptl", "beam"] },
      });
    const deaf = deriveScreen(
      input([device("ptl", "ptl-controller", true), device("di", "bin-sensor", false)]),
    );
    expect(deaf.notices).toEqual([
      { kind: "inputs_down", text: { key: "notice.inputs_down", params: { bins: "1" } }, bins: ["1"] },
    ]);
    expect(en(deaf.notices[0]?.text as Msg)).toBe(
      "The buttons of bins 1 do not answer: tap Confirm on this screen instead",
    );
    const dark = deriveScreen(
      input([device("ptl", "ptl-controller", false), device("beam", "bin-sensor", false)]),
    );
    expect(dark.notices.map((n) => n.kind)).toEqual(["lights_down"]);
  });

  it("a bin central freed names the bin and its orders", () => {
    const s = deriveScreen(screenInput({ releasedBins: [{ bin: "3", orders: ["P7", "P8"] }] }));
    expect(s.notices.map((n) => en(n.text))).toEqual([
      "Bin 3 is free again: central took back order P7, P8. Take out anything you put into it for that order",
    ]);
  });
});

describe("the link to central and the outbox", () => {
  it("connected with room: nothing; lost: work continues, changes are kept", () => {
    expect(linkNotices(null)).toEqual([]);
    expect(linkNotices({ connected: true, undelivered: 0, limit: 100 })).toEqual([]);
    const lost = linkNotices({ connected: false, undelivered: 3, limit: 100 });
    expect(lost.map((n) => [n.kind, en(n.text)])).toEqual([
      [
        "central_unreachable",
        "Central is not reachable: keep working, the station keeps every change and sends it when central is back",
      ],
    ]);
  });

  it("near full says after how many more changes work is refused; full says it is refused", () => {
    const near = Math.ceil(100 * OUTBOX_NEAR_FULL);
    expect(linkNotices({ connected: false, undelivered: near - 1, limit: 100 }).map((n) => n.kind)).toEqual([
      "central_unreachable",
    ]);
    const n = linkNotices({ connected: false, undelivered: near, limit: 100 });
    expect(n.map((x) => x.kind)).toEqual(["outbox_near_full", "central_unreachable"]);
    expect(en(n[0]?.text as Msg)).toBe(
      `Central has not received ${near} changes: after ${100 - near} more the station refuses work. Call a supervisor`,
    );
    const full = linkNotices({ connected: true, undelivered: 100, limit: 100 });
    expect(full).toEqual([
      {
        kind: "outbox_full",
        text: { key: "notice.outbox_full", params: { undelivered: 100 } },
        actions: ["supervisor"],
      },
    ]);
    const s = deriveScreen(screenInput({ link: { connected: false, undelivered: 90, limit: 100 } }));
    expect(s.notices.map((x) => x.kind)).toEqual(["outbox_near_full", "central_unreachable"]);
  });
});

describe("the outbox's byte bound", () => {
  const MiB = 2 ** 20;
  const link = (bytes: number) => ({
    connected: true,
    undelivered: 3,
    limit: 100,
    undeliveredBytes: bytes,
    limitBytes: 10 * MiB,
  });

  it("near full from 80 % of outbox.maxUndeliveredBytes, said in MiB; full at the bound", () => {
    expect(linkNotices(link(7.9 * MiB))).toEqual([]);
    const near = linkNotices(link(8 * MiB));
    expect(near).toEqual([
      {
        kind: "outbox_near_full",
        text: { key: "notice.outbox_near_full_bytes", params: { undelivered: 8, left: 2 } },
        actions: ["supervisor"],
      },
    ]);
    expect(en(near[0]?.text as Msg)).toBe(
      "Changes central has not received take 8 MiB: after 2 MiB more the station refuses work. Call a supervisor",
    );
    const full = linkNotices(link(10 * MiB));
    expect(full.map((n) => [n.kind, n.text])).toEqual([
      ["outbox_full", { key: "notice.outbox_full_bytes", params: { undelivered: 10 } }],
    ]);
  });

  it("the count's notice when the count is the nearer bound", () => {
    const n = linkNotices({ ...link(8 * MiB), undelivered: 100 });
    expect(n.map((x) => x.text.key)).toEqual(["notice.outbox_full"]);
  });
});

describe("the card's line n of m over a visit of the racks", () => {
  const rows = [1, 2, 3].map((i) => pickRow({ line: `P1-L${i}`, slot: `M1-A${i}` }));

  it("counts the lines picked since the racks came; other racks start again", () => {
    let v = nextVisit(null, ["M1"], rows);
    expect(doneLines(v, rows)).toBe(0);
    v = nextVisit(v, ["M1"], rows.slice(1));
    expect(doneLines(v, rows.slice(1))).toBe(1);
    v = nextVisit(v, ["M1"], rows.slice(2));
    expect(doneLines(v, rows.slice(2))).toBe(2);
    const other = nextVisit(v, ["M2"], rows.slice(2));
    expect(doneLines(other, rows.slice(2))).toBe(0);
  });

  it("says line 1, 2, 3 of 3 as the lines are worked, before and after the scan", () => {
    const card = (done: number, open: typeof rows, seat: SeatState = { step: "ready", tote: null }) =>
      deriveScreen(screenInput({ racks: ["M1"], pickLines: open, pickDone: done }, seat)).card;
    expect(card(0, rows)).toMatchObject({ phase: "take", line: 1, lines: 3 });
    expect(card(1, rows.slice(1))).toMatchObject({ phase: "take", line: 2, lines: 3 });
    expect(card(2, rows.slice(2))).toMatchObject({ phase: "take", line: 3, lines: 3 });
    const lit: SeatState = {
      step: "pick_confirm",
      pick: {
        ...(PICKING as Extract<SeatState, { step: "pick_confirm" }>).pick,
        line: "P1-L2",
        location: "M1-A2",
      },
    };
    expect(card(1, rows.slice(1), lit)).toMatchObject({ phase: "put", line: 2, lines: 3 });
  });
});

describe("one rack face per rack", () => {
  it("is sized by every known slot of the rack, whatever lines are shown", () => {
    const slots = ["M1-A1", "M1-A4", "M1-C1", "M1-C4", "M2-E9"];
    const faces = [
      [pickRow({ slot: "M1-A1" })],
      [pickRow({ slot: "M1-B2" })],
      [pickRow({ slot: "M1-C4" }), pickRow({ line: "x", slot: "M1-A1" })],
    ].map(
      (lines) => deriveScreen(screenInput({ racks: ["M1"], pickLines: lines, rackSlots: slots })).card?.face,
    );
    expect(faces.map((f) => [f?.rows, f?.cols])).toEqual([
      [3, 4],
      [3, 4],
      [3, 4],
    ]);
    const put = deriveScreen(screenInput({ mode: "put", rackSlots: slots }, PUT_CONFIRM));
    expect(put.card?.face).toBeNull(); // S9 has no place on a face
    const atFace = deriveScreen(
      screenInput({ mode: "put", rackSlots: slots }, {
        ...(PUT_CONFIRM as object),
        location: "M1-B2",
      } as SeatState),
    );
    expect(atFace.card?.face).toEqual({ rows: 3, cols: 4, row: 2, col: 2 });
  });
});

describe("the blind count's numpad", () => {
  it("says counted so far, never expected", () => {
    const audit = {
      auditId: "AU1",
      kq: true,
      lines: [{ auditLineId: "AU1-1", location: "S1", sku: "A", description: null, open: true }],
    };
    const s = deriveScreen(
      screenInput({ mode: "audit", audit }, { ...COUNTING, counts: { "AU1-1": 3 } } as SeatState),
    );
    expect(s.keyin?.label).toEqual({ key: "numpad.counted_so_far", params: { item: "A", counted: 3 } });
    for (const lang of ["en", "de"] as const) {
      const text = render(lang, "numpad.counted_so_far", { item: "A", counted: 3 });
      expect(text).toContain("3");
      expect(text.toLowerCase()).not.toMatch(/expected|erwartet/);
    }
    expect(render("en", "numpad.counted_so_far", { item: "A", counted: 3 })).toBe("A: counted so far: 3");
  });
});

describe("the last event in words", () => {
  it.each([
    [{ kind: "scan", barcode: "EXC-CONFIRM", source: "s" }, "Confirm"],
    [{ kind: "scan", barcode: "EXC-ITEM_MISSING", source: "s" }, "Missing"],
    [{ kind: "scan", barcode: "EXC-NOPE", source: "s" }, "Scanned EXC-NOPE"],
    [{ kind: "scan", barcode: "BADGE-alice", source: "s" }, "Badge of alice"],
    [{ kind: "scan", barcode: "4006381333931", source: "s" }, "Scanned 4006381333931"],
    [{ kind: "keyin", quantity: 4 }, "Keyed in 4"],
    [{ kind: "bin", binId: "6", signal: "confirm" }, "Button of bin 6"],
    [{ kind: "bin", binId: "6", signal: "sensor" }, "Beam of bin 6"],
    [{ kind: "tap", text: "6", action: "binEmptied" }, "Empty bin 6"],
    [{ kind: "tap", text: "6", action: "release" }, "Release tote in bin 6"],
    [{ kind: "tap", text: "6", action: "reprinted" }, "Reprint label of bin 6"],
    [{ kind: "tap", text: "6", action: "label_skipped" }, "Skip label of bin 6"],
    [{ kind: "tap", text: "", action: "supervisor_called" }, "Call a supervisor"],
    [{ kind: "tap", text: "put", action: "mode_set" }, "Switch to Put"],
    [{ kind: "tap", text: "de", action: "language_set" }, "Language"],
    [{ kind: "problem", problem: "short", quantity: 2 }, "Problem: too few, 2 missing"],
    [{ kind: "changed" }, "A change elsewhere"],
  ] as const)("%o → %s", (input, words) => {
    const said = saidOf(input);
    expect(en(said)).toBe(words);
    expect(Object.keys(CATALOGUES.de)).toContain(said.key);
  });

  it("is part of every last event", () => {
    const e = lastEventOf({
      seq: 1,
      at: 0,
      input: { kind: "scan", barcode: "EXC-CONFIRM", source: "s" },
      outcome: { result: "done", did: "picked" },
      binBefore: null,
      binsAfter: BINS,
      knownReasons: new Set(),
    });
    expect(e?.said).toEqual({ key: "exception.CONFIRM" });
  });
});

describe("a failed reprint in words", () => {
  it("says the label did not print and what to do, not that work is in progress", () => {
    expect(render("en", "refusal.label_not_printed")).toBe("The label did not print");
    expect(render("en", "instead.label_not_printed")).toMatch(/printer.*Reprint.*Skip label.*supervisor/);
    const s = deriveScreen(
      screenInput({
        now: 1,
        refusal: { reason: "label_not_printed", code: null, item: null, signalBin: null, until: 10 },
      }),
    );
    expect(s.alert).toMatchObject({
      reason: { key: "refusal.label_not_printed" },
      instead: { key: "instead.label_not_printed" },
    });
  });
});
