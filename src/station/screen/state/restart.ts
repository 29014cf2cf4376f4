/**
 * What a restart did to the work a seat had lit (pure; docs/station.md#after-a-restart): how many of
 * its units were recorded, and what to do with those that were not (in the operator's hand or already
 * in the bin): back into the slot, then the item scanned again, the line being still open. Shown
 * whoever is logged in, until acknowledged.
 */
import type { Msg, RestartNotice, ScreenInput } from "./types.js";

const msg = (key: string, params: Msg["params"]): Msg => ({ key, params });

export function restartOf(input: ScreenInput): RestartNotice | null {
  const w = input.restart;
  if (!w) return null;
  const { recorded, quantity, order, line, slot, bin } = w;
  const left = quantity - recorded;
  if (w.kind === "put")
    return {
      text: msg("restart.recorded_put", { recorded, quantity, sku: line, tote: w.tote ?? order }),
      todo:
        left > 0 ? msg("restart.todo_put_back", { left, bin }) : msg("restart.todo_put_none", { quantity }),
      recorded,
      quantity,
    };
  return {
    text: msg("restart.recorded", { recorded, quantity, order, line }),
    todo:
      left > 0 ? msg("restart.todo_back", { left, slot, bin }) : msg("restart.todo_none", { bin, quantity }),
    recorded,
    quantity,
  };
}
