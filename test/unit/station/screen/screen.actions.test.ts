/**
 * The screen's actions around the engine (src/station/screen/actions.ts), with the engine and the
 * station operations as stubs: the stale-tap rule, a problem's default quantity, and a reprint that
 * reports what the printer answered (printed, failed again, or not yet within the wait).
 */
import { describe, expect, it } from "vitest";
import type { Outcome } from "../../../../src/station/engine.js";
import { createScreenActions, type ScreenActionDeps } from "../../../../src/station/screen/actions.js";
import { stepSeat } from "../../../../src/station/seat.machine.js";
import { facts, PUT_SLOT } from "../support.js";

function setup(over: Partial<ScreenActionDeps> = {}) {
  const recorded: Outcome[] = [];
  const problems: Array<[string, number]> = [];
  const deps: ScreenActionDeps = {
    engine: {
      scan: (seat) => ({ seat, result: "done", did: "scanned" }),
      keyin: (seat) => ({ seat, result: "done" }),
      problem: (seat, kind, quantity) => {
        problems.push([kind, quantity]);
        return { seat, result: "done", did: "pick_exception" };
      },
      press: () => ({ seat: null, result: "ignored" }),
      seats: () => [],
      last: () => null,
      captureTyped: (seat) => ({ seat, result: "refused", reason: "not_this_step" }),
      undo: (seat) => ({ seat, result: "done", did: "undone" }),
    },
    ops: { setMode: () => {}, binEmptied: () => {}, release: () => {}, printReady: () => {} },
    screen: () => ({
      version: 5,
      problems: [
        {
          kind: "damaged",
          label: { key: "problem.damaged" },
          max: 3,
          default: 3,
          destination: { key: "x" },
          replaces: "PHYSICALLY_DAMAGED",
        },
      ],
      next: null,
    }),
    waitingLabel: () => ["P1"],
    forgetLabels: () => {},
    note: () => {},
    completePut: () => null,
    reprint: null,
    user: () => "alice",
    setOperatorLang: () => {},
    simulatedScan: () => undefined,
    record: (_seat, _input, out) => recorded.push(out),
    ...over,
  };
  return { actions: createScreenActions(deps), recorded, problems };
}

describe("screen actions", () => {
  it("a tap on an older version is stale and reaches nothing; the current or a newer one is taken", () => {
    const { actions, problems } = setup();
    expect(() =>
      actions.run("front", { type: "problem", kind: "damaged", confirmed: true, version: 4 }),
    ).toThrow(
      expect.objectContaining({
        code: "stale_screen",
        errors: [expect.objectContaining({ path: "version" })],
      }),
    );
    expect(problems).toEqual([]);
    actions.run("front", { type: "problem", kind: "damaged", confirmed: true, version: 5 });
    actions.run("front", { type: "problem", kind: "damaged", quantity: 1, confirmed: true });
    expect(problems).toEqual([
      ["damaged", 3],
      ["damaged", 1],
    ]);
  });

  it("a reprint says printed, failed again, or sent and waiting", async () => {
    const printed = setup({ reprint: async () => true });
    expect(await printed.actions.run("front", { type: "reprint", bin: "2" })).toMatchObject({
      result: "done",
      did: "reprinted",
    });
    const failed = setup({ reprint: async () => false });
    expect(await failed.actions.run("front", { type: "reprint", bin: "2" })).toMatchObject({
      result: "refused",
      // a label that did not print, never "work is still in progress"
      reason: "label_not_printed",
      message: "the label of bin 2 did not print again",
    });
    expect(failed.recorded).toEqual([expect.objectContaining({ reason: "label_not_printed" })]);
    const slow = setup({ reprint: () => new Promise<boolean>(() => {}), reprintWaitMs: 20 });
    expect(await slow.actions.run("front", { type: "reprint", bin: "2" })).toMatchObject({
      result: "done",
      did: "print_sent",
    });
    expect(slow.recorded).toHaveLength(1);
  });

  it("a put's key-in above what the tote still expects is refused at once, not only at confirm", () => {
    const over = stepSeat(PUT_SLOT, {
      type: "keyin",
      quantity: PUT_SLOT.put.left + 1,
      facts: facts({ mode: "put" }),
    });
    expect(over).toMatchObject({ ok: false, reason: "more_than_expected" });
    const fine = stepSeat(PUT_SLOT, {
      type: "keyin",
      quantity: PUT_SLOT.put.left,
      facts: facts({ mode: "put" }),
    });
    expect(fine).toMatchObject({ ok: true });
  });
});
