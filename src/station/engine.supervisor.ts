/**
 * A supervisor's badge scanned at a seat (docs/station.md#supervisor-at-the-seat): it is no scan of the
 * seat's work. It goes to the seat's open supervisor prompt (the operator screen's), and with none open it
 * authorises nothing and is refused in words.
 */
import type { Outcome } from "./engine.types.js";

/** Takes a badge for the seat's open prompt: its answer, or null when no prompt is open there. */
export type SupervisorBadgeHandler = (seat: string, badge: string, source: string) => Outcome | null;

/** A supervisor's badge with no supervisor's prompt open at the seat: it authorises nothing. */
export const noPrompt = (seat: string): Outcome => ({
  seat,
  result: "refused",
  reason: "no_supervisor_prompt",
  message: "a supervisor's badge authorises a supervisor's tap: tap it first, then scan the badge",
  calls: [],
});
