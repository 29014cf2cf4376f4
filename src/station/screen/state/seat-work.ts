/**
 * The work one seat's screen offers (pure; docs/station.md#two-seats-one-station): the pick lines less
 * those another seat has lit, so a seat's card, task list, instruction and problems name only work its
 * scan would take (seat-facts.ts gives its scans the same view).
 */
import { isTaken, litByOthers } from "../../seat-facts.js";
import type { ScreenInput } from "./types.js";

type Work = Pick<ScreenInput, "seat" | "seats" | "pickLines">;

export function seatWork<T extends Work>(input: T): T {
  if (!input.pickLines.length) return input;
  const taken = litByOthers(input.seats, input.seat);
  if (!taken.size) return input;
  return { ...input, pickLines: input.pickLines.filter((row) => !isTaken(taken, row)) };
}
