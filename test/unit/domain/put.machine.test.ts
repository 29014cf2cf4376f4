import { describe, expect, it } from "vitest";
import {
  createPut,
  PUT_INPUTS,
  PUT_STATES,
  PUT_STATUS,
  PUT_TABLE,
  type PutEffect,
  type PutInput,
  type PutInputType,
  type PutState,
  stepPut,
} from "../../../src/domain/put.machine.js";
import { edges, expectRefused, missingPairs } from "./table.js";

const alert = { code: "pps_mode_incorrect", description: "station is in pick mode" };
const putOf = (finished: boolean): PutInput => ({
  type: "put_transaction",
  productSku: "SKU-1",
  location: "B07",
  itemId: "I9",
  quantity: 4,
  finished,
});
const exceptionOf = (finished: boolean): PutInput => ({
  type: "put_exception",
  productSku: "SKU-1",
  state: "front_physically_damaged",
  quantity: 1,
  finished,
});
const cancelStaging = (putsRecorded: boolean): PutInput => ({ type: "stage_cancelled", putsRecorded });

const variants: Record<PutInputType, PutInput[]> = {
  stage_requested: [{ type: "stage_requested" }],
  stage_succeeded: [{ type: "stage_succeeded" }],
  stage_failed: [{ type: "stage_failed", alerts: [alert] }],
  stage_cancelled: [cancelStaging(false), cancelStaging(true)],
  put_back_staged: [{ type: "put_back_staged" }],
  put_transaction: [putOf(false), putOf(true)],
  put_exception: [exceptionOf(false), exceptionOf(true)],
  release: [{ type: "release" }],
  cancel: [{ type: "cancel" }],
  modify: [{ type: "modify" }],
};
const one = (type: PutInputType): PutInput => variants[type][0] as PutInput;

// Spec "States and transitions" → "Put request", plus the decisions documented in put.machine.ts.
const rows: { start: PutState; input: PutInput; target: PutState; notices: string[] }[] = [
  { start: "created", input: one("stage_requested"), target: "stage_requested", notices: [] },
  { start: "stage_requested", input: one("stage_succeeded"), target: "staged", notices: ["staged"] },
  { start: "stage_requested", input: one("stage_failed"), target: "created", notices: ["stage_failure"] },
  { start: "stage_requested", input: cancelStaging(false), target: "created", notices: ["stage_cancelled"] },
  { start: "stage_requested", input: cancelStaging(true), target: "created", notices: ["stage_cancelled"] },
  { start: "staged", input: cancelStaging(false), target: "created", notices: ["stage_cancelled"] },
  { start: "created", input: one("put_back_staged"), target: "staged", notices: [] },
  { start: "staged", input: putOf(false), target: "staged", notices: [] },
  { start: "staged", input: putOf(true), target: "complete", notices: ["complete"] },
  { start: "staged", input: exceptionOf(false), target: "staged", notices: ["put_transaction"] },
  { start: "staged", input: exceptionOf(true), target: "complete", notices: ["put_transaction", "complete"] },
  { start: "complete", input: one("release"), target: "released", notices: [] },
  { start: "created", input: one("cancel"), target: "cancelled", notices: [] },
  { start: "created", input: one("modify"), target: "created", notices: [] },
];

const label = (input: PutInput): string => {
  if (input.type === "put_transaction" || input.type === "put_exception") {
    return `${input.type}(finished=${input.finished})`;
  }
  return input.type === "stage_cancelled" ? `${input.type}(putsRecorded=${input.putsRecorded})` : input.type;
};

function moved(state: PutState, input: PutInput): { state: PutState; effects: PutEffect[] } {
  const step = stepPut(state, input);
  if ("error" in step) throw new Error(`refused: ${step.error.reason}`);
  return step;
}
const kinds = (effects: PutEffect[]) => effects.map((e) => e.kind);

describe("put machine: allowed moves", () => {
  for (const { start, input, target, notices } of rows) {
    it(`${start} --${label(input)}--> ${target}`, () => {
      const step = moved(start, input);
      expect(step.state).toBe(target);
      const sent = step.effects.flatMap((e) => (e.kind === "notify" ? [`${e.state}`] : []));
      expect(sent).toEqual(notices);
      expect(step.effects.every((e) => e.kind !== "notify" || e.type === "put_information")).toBe(true);
    });
  }

  it("the exported table holds exactly these moves", () => {
    const mine = rows.map((r) => ({ from: r.start, input: r.input.type, to: r.target }));
    expect(edges(PUT_TABLE)).toEqual(edges(mine));
  });
});

describe("put machine: refused moves leave the state as it was", () => {
  const allowed = rows.map((r) => ({ from: r.start, input: r.input.type }));
  for (const { from, input } of missingPairs(PUT_STATES, PUT_INPUTS, allowed)) {
    it(`${from} refuses ${input}`, () => {
      for (const variant of variants[input]) expectRefused(stepPut(from, variant), from, input);
    });
  }

  it("staged refuses to cancel staging once a put is recorded", () => {
    expectRefused(stepPut("staged", cancelStaging(true)), "staged", "stage_cancelled");
  });
});

describe("put machine: effects", () => {
  it("creation emits nothing and is CREATED", () => {
    expect(createPut()).toEqual({ state: "created", effects: [] });
    expect(PUT_STATUS.created).toBe("CREATED");
  });

  it("maps every state to a status", () => {
    expect(PUT_STATUS).toEqual({
      created: "CREATED",
      stage_requested: "PROCESSING",
      staged: "PROCESSING",
      complete: "PROCESSED",
      released: "PROCESSED",
      cancelled: "CANCELLED",
    });
  });

  it("a stage request asks for the staging conditions to be checked", () => {
    expect(moved("created", one("stage_requested")).effects).toEqual([{ kind: "check_staging" }]);
  });

  it("a staging failure carries the alert codes and frees the bin", () => {
    const step = moved("stage_requested", { type: "stage_failed", alerts: [alert] });
    expect(step.effects).toEqual([
      { kind: "notify", type: "put_information", state: "stage_failure", alerts: [alert] },
      { kind: "free_bin" },
    ]);
  });

  it("a put transaction adds stock at the location and records a complete container", () => {
    expect(moved("staged", putOf(false)).effects).toEqual([
      { kind: "add", location: "B07", itemId: "I9", quantity: 4 },
      { kind: "record_actual", productSku: "SKU-1", state: "complete", quantity: 4, location: "B07" },
    ]);
  });

  it("a put exception records its container state and adds no stock", () => {
    const step = moved("staged", exceptionOf(false));
    expect(step.effects[0]).toEqual({
      kind: "record_actual",
      productSku: "SKU-1",
      state: "front_physically_damaged",
      quantity: 1,
    });
    expect(kinds(step.effects)).not.toContain("add");
  });

  it("releasing the tote frees the bin without a notification", () => {
    expect(moved("complete", one("release")).effects).toEqual([{ kind: "free_bin" }]);
  });
});
