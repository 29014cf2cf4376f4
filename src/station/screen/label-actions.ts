/**
 * The screen's taps about a bin's shipping label (docs/station.md#shipping-labels-pickpack): reprint it,
 * waiting a while for the printer's answer, or release the bin's orders without one (skip label).
 */
import { AppError } from "../../domain/errors.js";
import type { Outcome } from "../engine.js";

/** The answer to a reprint: whether the label printed, within the time the tap waits for it. */
export type PrintResult = "printed" | "failed" | "waiting";
/** How long a reprint tap waits for the printer's answer before it says "sent, waiting". */
export const REPRINT_WAIT_MS = 10_000;

/** Runs a station operation for a tap; its outcome becomes the seat's last event (actions.ts). */
export type OperationTap = (seat: string, text: string, did: string, run: () => void) => Outcome;

export interface LabelTapDeps {
  ops: { printReady(externalServiceRequestId: string): void };
  waitingLabel(binId: string): string[];
  forgetLabels(ids: readonly string[]): void;
  note(event: string, fields: Record<string, unknown>): void;
  reprint: ((binId: string) => Promise<boolean>) | null;
  reprintWaitMs?: number;
  /** Lets a bin go whose closed box waits for its label (none waits: false). */
  skipBox?: (binId: string) => boolean;
  user(seat: string): string | null;
  record(seat: string, input: { kind: "tap"; text: string; action?: string }, outcome: Outcome): void;
}

/** Waits for a print job's result, at most `wait` ms: printed, failed, or still waiting. */
async function printResult(job: Promise<boolean>, wait: number): Promise<PrintResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<PrintResult>((resolve) => {
    timer = setTimeout(() => resolve("waiting"), wait);
  });
  const done = job.then(
    (ok): PrintResult => (ok ? "printed" : "failed"),
    (): PrintResult => "failed",
  );
  const result = await Promise.race([done, late]);
  clearTimeout(timer);
  return result;
}

/** The bin's orders released without a label (print_ready), logged with who skipped. */
export function skipLabel(deps: LabelTapDeps, operation: OperationTap, seat: string, bin: string): Outcome {
  return operation(seat, bin, "label_skipped", () => {
    const orders = deps.waitingLabel(bin);
    if (!orders.length && deps.skipBox?.(bin)) {
      deps.note("label_skipped", { seat, operator: deps.user(seat), bin, orders });
      return;
    }
    if (!orders.length) throw new AppError("invalid_state", `bin ${bin} does not wait for a label`);
    for (const id of orders) deps.ops.printReady(id);
    deps.forgetLabels(orders);
    deps.note("label_skipped", { seat, operator: deps.user(seat), bin, orders });
  });
}

/** The bin's shipping labels printed again: printed, failed, or sent and still waiting. */
export async function reprint(
  deps: LabelTapDeps,
  operation: OperationTap,
  seat: string,
  bin: string,
): Promise<Outcome> {
  const print = deps.reprint;
  if (!print)
    return operation(seat, bin, "reprinted", () => {
      throw new AppError("invalid_state", "the agent does not print labels here");
    });
  const result = await printResult(print(bin), deps.reprintWaitMs ?? REPRINT_WAIT_MS);
  if (result === "failed") {
    // said as a label that did not print, with what to do (not as work in progress)
    const message = `the label of bin ${bin} did not print again`;
    const out: Outcome = { seat, result: "refused", reason: "label_not_printed", message };
    deps.record(seat, { kind: "tap", text: bin, action: "reprinted" }, out);
    return out;
  }
  return operation(seat, bin, result === "printed" ? "reprinted" : "print_sent", () => {});
}
