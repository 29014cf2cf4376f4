/**
 * Shared shapes of the pure state machines (pick, pick line, put, audit, audit line).
 *
 * A machine is a function `(state, input) → { state, effects }`. When the spec's tables do not allow a
 * move ("Moves of pick, put and audit requests other than those in the tables: not shown", read here as
 * "not allowed"), the machine returns a refusal instead and the caller keeps the state it had. The
 * refusal's `code` is the stable `invalid_state` of `errors.ts`, which the HTTP layer maps to 409.
 */
import type { ErrorCode } from "./errors.js";

export interface Refusal<From extends string = string, Input extends string = string> {
  error: {
    code: Extract<ErrorCode, "invalid_state">;
    /** the state (or audit status) the input was refused in */
    from: From;
    /** the input's `type` */
    input: Input;
    /** for people reading logs; tests and clients match `code`, never this text */
    reason: string;
  };
}

export interface Moved<State, Effect> {
  state: State;
  /** what the caller must do, in order, inside the same transaction as the state change */
  effects: Effect[];
}

export type Step<State, Effect, From extends string, Input extends string> =
  | Moved<State, Effect>
  | Refusal<From, Input>;

/**
 * One row of a transition table. `when` names the condition, read from the input's data, that selects
 * between rows sharing `from` and `input` (e.g. a pick transaction that was, or was not, the last one).
 */
export interface TransitionRow<S extends string, I extends string> {
  from: S;
  input: I;
  when?: string;
  to: S;
}

export function isRefusal(step: object): step is Refusal {
  return "error" in step;
}

export function findRow<R extends TransitionRow<string, string>>(
  table: readonly R[],
  from: R["from"],
  input: R["input"],
  when?: string,
): R | undefined {
  return table.find((r) => r.from === from && r.input === input && (r.when === undefined || r.when === when));
}

/** A refusal whose reason lists the states that do accept the input, read from the table. */
export function refuse<R extends TransitionRow<string, string>>(
  table: readonly R[],
  from: R["from"],
  input: R["input"],
  when?: string,
): Refusal<R["from"], R["input"]> {
  const accepting = table.filter((r) => r.input === input && (when === undefined || r.when === when));
  const states = [...new Set(accepting.map((r) => r.from))];
  const label = when === undefined ? input : `${input} (${when})`;
  const reason =
    states.length === 0
      ? `${label} is not accepted in any state`
      : `${label} is not accepted in state ${from}; accepted in: ${states.join(", ")}`;
  return refusal(from, input, reason);
}

export function refusal<S extends string, I extends string>(
  from: S,
  input: I,
  reason: string,
): Refusal<S, I> {
  return { error: { code: "invalid_state", from, input, reason } };
}
