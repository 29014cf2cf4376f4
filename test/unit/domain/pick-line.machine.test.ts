import { describe, expect, it } from "vitest";
import {
  createPickLine,
  outstanding,
  PICK_LINE_INPUTS,
  PICK_LINE_STATES,
  PICK_LINE_TABLE,
  type PickLine,
  type PickLineInput,
  type PickLineInputType,
  type PickLineState,
  stepPickLine,
  summarizeLines,
} from "../../../src/domain/pick-line.machine.js";
import { edges, expectRefused, missingPairs } from "./table.js";

const line = (state: PickLineState, picked = 0, short = 0, expected = 5): PickLine => ({
  state,
  expected,
  picked,
  short,
});

const variants: Record<PickLineInputType, PickLineInput[]> = {
  allocated: [{ type: "allocated" }],
  allocation_failed: [{ type: "allocation_failed" }],
  reset: [{ type: "reset" }],
  pick: [{ type: "pick", quantity: 1 }],
  exception: [{ type: "exception", quantity: 1 }],
  abandon: [{ type: "abandon" }],
  expire: [{ type: "expire" }],
  cancel: [{ type: "cancel" }],
};
const one = (type: PickLineInputType): PickLineInput => variants[type][0] as PickLineInput;

// The lifecycle documented in pick-line.machine.ts (spec: line transitions not shown).
const rows: { start: PickLine; input: PickLineInput; target: PickLine }[] = [
  { start: line("undefined"), input: one("allocated"), target: line("fulfillable") },
  { start: line("undefined"), input: one("allocation_failed"), target: line("not_fulfillable") },
  { start: line("undefined"), input: one("reset"), target: line("undefined") },
  { start: line("fulfillable"), input: one("reset"), target: line("undefined") },
  { start: line("undefined"), input: one("cancel"), target: line("cancelled") },
  { start: line("fulfillable"), input: one("cancel"), target: line("cancelled") },
  { start: line("not_fulfillable"), input: one("cancel"), target: line("cancelled") },
  { start: line("not_fulfillable"), input: one("reset"), target: line("undefined") },
  { start: line("undefined"), input: one("expire"), target: line("not_fulfillable") },
  { start: line("fulfillable"), input: one("expire"), target: line("not_fulfillable") },
  { start: line("fulfillable"), input: { type: "pick", quantity: 2 }, target: line("pick_started", 2) },
  { start: line("fulfillable"), input: { type: "pick", quantity: 5 }, target: line("complete", 5) },
  {
    start: line("fulfillable"),
    input: { type: "exception", quantity: 1 },
    target: line("pick_started", 0, 1),
  },
  { start: line("fulfillable"), input: { type: "exception", quantity: 5 }, target: line("abandoned", 0, 5) },
  { start: line("pick_started", 2), input: { type: "pick", quantity: 1 }, target: line("pick_started", 3) },
  { start: line("pick_started", 2), input: { type: "pick", quantity: 3 }, target: line("complete", 5) },
  {
    start: line("pick_started", 2, 1),
    input: { type: "pick", quantity: 2 },
    target: line("abandoned", 4, 1),
  },
  {
    start: line("pick_started", 2),
    input: { type: "exception", quantity: 1 },
    target: line("pick_started", 2, 1),
  },
  {
    start: line("pick_started", 2),
    input: { type: "exception", quantity: 3 },
    target: line("abandoned", 2, 3),
  },
  { start: line("fulfillable"), input: one("abandon"), target: line("abandoned") },
  { start: line("pick_started", 1), input: one("abandon"), target: line("abandoned", 1) },
];

describe("pick line machine: allowed moves", () => {
  for (const { start, input, target } of rows) {
    const q = "quantity" in input ? `(${input.quantity})` : "";
    it(`${start.state} ${start.picked}/${start.short} --${input.type}${q}--> ${target.state}`, () => {
      const step = stepPickLine(start, input);
      expect(step).toEqual({ state: target, effects: [] });
    });
  }

  it("the exported table holds exactly these moves", () => {
    const mine = rows.map((r) => ({ from: r.start.state, input: r.input.type, to: r.target.state }));
    expect(edges(PICK_LINE_TABLE)).toEqual(edges(mine));
  });
});

describe("pick line machine: refused moves", () => {
  const allowed = rows.map((r) => ({ from: r.start.state, input: r.input.type }));
  for (const { from, input } of missingPairs(PICK_LINE_STATES, PICK_LINE_INPUTS, allowed)) {
    it(`${from} refuses ${input}`, () => {
      const start = line(from);
      for (const variant of variants[input]) expectRefused(stepPickLine(start, variant), from, input);
      expect(start).toEqual(line(from));
    });
  }

  for (const quantity of [0, -1, 1.5, 4, Number.NaN]) {
    it(`refuses a pick or exception of ${quantity} with 3 outstanding`, () => {
      const start = line("pick_started", 1, 1);
      expectRefused(stepPickLine(start, { type: "pick", quantity }), "pick_started", "pick");
      expectRefused(stepPickLine(start, { type: "exception", quantity }), "pick_started", "exception");
      expect(start).toEqual(line("pick_started", 1, 1));
    });
  }
});

describe("pick line helpers", () => {
  it("a new line is undefined with its whole quantity outstanding", () => {
    const created = createPickLine(7);
    expect(created.state).toBe("undefined");
    expect(outstanding(created)).toBe(7);
  });

  it("summarizes a request's lines", () => {
    expect(summarizeLines([line("complete", 5), line("pick_started", 2)])).toBe("open");
    expect(summarizeLines([line("complete", 5), line("complete", 5)])).toBe("complete");
    expect(summarizeLines([line("complete", 5), line("abandoned", 4, 1)])).toBe("short");
    expect(summarizeLines([line("fulfillable")])).toBe("open");
    expect(summarizeLines([])).toBe("open");
  });
});
