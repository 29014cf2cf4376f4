/**
 * Helpers for state-table tests: compare a test's own rows with a machine's exported table, and list
 * the (state, input) pairs a test's rows do not allow, which must be refused.
 */
import { expect } from "vitest";

export interface Edge {
  from: string;
  input: string;
  to: string;
}

/** Distinct `from --input--> to` moves, sorted, so two tables compare with `toEqual`. */
export function edges(rows: readonly Edge[]): string[] {
  return [...new Set(rows.map((r) => `${r.from} --${r.input}--> ${r.to}`))].sort();
}

/** Every (state, input) pair for which no row exists. */
export function missingPairs<S extends string, I extends string>(
  states: readonly S[],
  inputs: readonly I[],
  allowed: readonly { from: S; input: I }[],
): { from: S; input: I }[] {
  const ok = new Set(allowed.map((a) => `${a.from}|${a.input}`));
  return states.flatMap((from) =>
    inputs.filter((input) => !ok.has(`${from}|${input}`)).map((input) => ({ from, input })),
  );
}

/** Asserts a step is a refusal of `input` in `from`, carrying no new state. */
export function expectRefused(step: object, from: string, input: string): void {
  expect(step).not.toHaveProperty("state");
  expect(step).toHaveProperty("error.code", "invalid_state");
  expect(step).toHaveProperty("error.from", from);
  expect(step).toHaveProperty("error.input", input);
}
