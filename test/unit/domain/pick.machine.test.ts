import { describe, expect, it } from "vitest";
import {
  createPick,
  PICK_INPUTS,
  PICK_STATES,
  PICK_STATUS,
  PICK_TABLE,
  type PickEffect,
  type PickInput,
  type PickInputType,
  type PickState,
  stepPick,
} from "../../../src/domain/pick.machine.js";
import { edges, expectRefused, missingPairs } from "./table.js";

const reservation = { lineId: "L1", location: "A01", itemId: "I1", quantity: 2 };
const pickOf = (last: boolean): PickInput => ({
  type: "pick_transaction",
  lineId: "L1",
  location: "A01",
  itemId: "I1",
  quantity: 1,
  last,
});

/** Every variant of every input, so refusals are checked whatever the input's data. */
const variants: Record<PickInputType, PickInput[]> = {
  allocated: [{ type: "allocated", reservations: [reservation] }],
  allocation_failed: [{ type: "allocation_failed", lineId: "L1" }],
  rack_reached: [{ type: "rack_reached" }],
  pick_transaction: [pickOf(false), pickOf(true)],
  exception: [{ type: "exception", lineId: "L1", quantity: 1, reason: "item_missing" }],
  lines_short: [{ type: "lines_short" }],
  deadline_passed: [{ type: "deadline_passed" }],
  cancel: [{ type: "cancel", transaction: "tx-cancel" }],
  modify: [{ type: "modify", transaction: "tx-modify" }],
};
const one = (type: PickInputType): PickInput => variants[type][0] as PickInput;

const oi = (state: PickState) => `order_information:${state}`;
const om = "order_modification:success";

// Spec "States and transitions" → "Pick request", plus the decisions documented in pick.machine.ts.
const rows: { start: PickState; input: PickInput; target: PickState; notices: string[] }[] = [
  { start: "created", input: one("allocated"), target: "fulfillable", notices: [oi("fulfillable")] },
  {
    start: "created",
    input: one("allocation_failed"),
    target: "not_fulfillable",
    notices: [oi("not_fulfillable")],
  },
  {
    start: "fulfillable",
    input: one("rack_reached"),
    target: "cancellation_locked",
    notices: [oi("cancellation_locked")],
  },
  {
    start: "cancellation_locked",
    input: pickOf(false),
    target: "pick_started",
    notices: [oi("pick_started")],
  },
  {
    start: "cancellation_locked",
    input: pickOf(true),
    target: "complete",
    notices: [oi("pick_started"), oi("complete")],
  },
  {
    start: "cancellation_locked",
    input: one("exception"),
    target: "pick_started",
    notices: [oi("pick_started")],
  },
  { start: "pick_started", input: pickOf(false), target: "pick_started", notices: [oi("pick_started")] },
  { start: "pick_started", input: pickOf(true), target: "complete", notices: [oi("complete")] },
  { start: "pick_started", input: one("exception"), target: "pick_started", notices: [oi("pick_started")] },
  { start: "pick_started", input: one("lines_short"), target: "abandoned", notices: [oi("abandoned")] },
  { start: "created", input: one("cancel"), target: "cancelled", notices: [om, oi("cancelled")] },
  { start: "fulfillable", input: one("cancel"), target: "cancelled", notices: [om, oi("cancelled")] },
  { start: "created", input: one("modify"), target: "created", notices: [om] },
  { start: "fulfillable", input: one("modify"), target: "created", notices: [om] },
  // not_fulfillable is before cancellation_locked: cancel and modify are allowed (docs/decisions.md)
  { start: "not_fulfillable", input: one("cancel"), target: "cancelled", notices: [om, oi("cancelled")] },
  { start: "not_fulfillable", input: one("modify"), target: "created", notices: [om] },
  // pick_before_time passed before the first pick transaction
  ...(["created", "fulfillable", "cancellation_locked"] as const).map((start) => ({
    start,
    input: one("deadline_passed"),
    target: "not_fulfillable" as const,
    notices: [oi("not_fulfillable")],
  })),
];

function moved(state: PickState, input: PickInput): { state: PickState; effects: PickEffect[] } {
  const step = stepPick(state, input);
  if ("error" in step) throw new Error(`refused: ${step.error.reason}`);
  return step;
}

const noticesOf = (effects: PickEffect[]) =>
  effects.flatMap((e) => (e.kind === "notify" ? [`${e.type}:${e.state}`] : []));
const kinds = (effects: PickEffect[]) => effects.map((e) => e.kind);

describe("pick machine: allowed moves", () => {
  for (const { start, input, target, notices } of rows) {
    const label = input.type === "pick_transaction" ? `pick_transaction(last=${input.last})` : input.type;
    it(`${start} --${label}--> ${target}`, () => {
      const step = moved(start, input);
      expect(step.state).toBe(target);
      expect(noticesOf(step.effects)).toEqual(notices);
    });
  }

  it("the exported table holds exactly these moves", () => {
    const mine = rows.map((r) => ({ from: r.start, input: r.input.type, to: r.target }));
    expect(edges(PICK_TABLE)).toEqual(edges(mine));
  });
});

describe("pick machine: refused moves leave the state as it was", () => {
  const allowed = rows.map((r) => ({ from: r.start, input: r.input.type }));
  for (const { from, input } of missingPairs(PICK_STATES, PICK_INPUTS, allowed)) {
    it(`${from} refuses ${input}`, () => {
      for (const variant of variants[input]) expectRefused(stepPick(from, variant), from, input);
    });
  }
});

describe("pick machine: effects", () => {
  it("creation asks for an allocation and the status is CREATED", () => {
    const created = createPick();
    expect(created.state).toBe("created");
    expect(created.effects).toEqual([{ kind: "allocate" }]);
    expect(PICK_STATUS[created.state]).toBe("CREATED");
  });

  it("maps every state to the spec's status", () => {
    expect(PICK_STATUS).toEqual({
      created: "CREATED",
      fulfillable: "PROCESSING",
      cancellation_locked: "PROCESSING",
      pick_started: "PROCESSING",
      complete: "PROCESSED",
      not_fulfillable: "FAILED",
      cancelled: "CANCELLED",
      abandoned: "CANCELLED",
    });
  });

  it("allocation reserves the given stock before notifying", () => {
    const step = moved("created", { type: "allocated", reservations: [reservation] });
    expect(step.effects[0]).toEqual({ kind: "reserve", reservations: [reservation] });
    expect(kinds(step.effects)).toEqual(["reserve", "notify"]);
  });

  it("a pick consumes stock and records a complete container; the last one also releases and checks the bin", () => {
    const more = moved("pick_started", pickOf(false));
    expect(more.effects.slice(0, 2)).toEqual([
      { kind: "consume", lineId: "L1", location: "A01", itemId: "I1", quantity: 1 },
      { kind: "record_actual", lineId: "L1", state: "complete", quantity: 1, location: "A01" },
    ]);
    expect(kinds(more.effects)).not.toContain("check_bin");
    const last = moved("pick_started", pickOf(true));
    expect(kinds(last.effects)).toEqual(["consume", "record_actual", "release", "notify", "check_bin"]);
  });

  it("an exception records a container in the exception's state and moves no stock", () => {
    const step = moved("pick_started", {
      type: "exception",
      lineId: "L2",
      quantity: 3,
      reason: "unscannable",
    });
    expect(step.effects[0]).toEqual({
      kind: "record_actual",
      lineId: "L2",
      state: "unscannable",
      quantity: 3,
    });
    expect(kinds(step.effects)).not.toContain("consume");
  });

  it("abandoning releases what is still reserved and checks the bin", () => {
    expect(kinds(moved("pick_started", one("lines_short")).effects)).toEqual([
      "release",
      "notify",
      "check_bin",
    ]);
  });

  it("cancel carries the call's transaction id and releases only what was reserved", () => {
    const fromFulfillable = moved("fulfillable", { type: "cancel", transaction: "T-9" });
    expect(fromFulfillable.effects[0]).toEqual({ kind: "release" });
    expect(fromFulfillable.effects[1]).toEqual({
      kind: "notify",
      type: "order_modification",
      state: "success",
      transaction: "T-9",
    });
    expect(kinds(moved("created", one("cancel")).effects)).not.toContain("release");
  });

  it("a passed deadline releases what a request holds, notifies, then checks its bin", () => {
    expect(kinds(moved("fulfillable", one("deadline_passed")).effects)).toEqual([
      "release",
      "notify",
      "check_bin",
    ]);
    expect(kinds(moved("created", one("deadline_passed")).effects)).toEqual(["notify", "check_bin"]);
  });

  it("modify reports success, then re-allocates (the allocation gives the order_information)", () => {
    const step = moved("fulfillable", { type: "modify", transaction: "T-3" });
    expect(kinds(step.effects)).toEqual(["release", "notify", "allocate"]);
    expect(step.effects[1]).toMatchObject({ type: "order_modification", transaction: "T-3" });
    expect(kinds(moved("created", one("modify")).effects)).toEqual(["notify", "allocate"]);
  });

  it("a refused cancel names the state it was refused in", () => {
    const step = stepPick("cancellation_locked", one("cancel"));
    expect(step).toMatchObject({
      error: { code: "invalid_state", from: "cancellation_locked", input: "cancel" },
    });
  });
});
