// @ts-check
// A unit put wrong after a confirm (docs/station.md#undo): the supervisor's tap beside the last event,
// "Correct the last put" (which slot the units are really in) or "A unit went into the wrong bin"
// (which bin it went into); the choice is the tap, which asks for the supervisor's badge or PIN.
/** @import { ScreenState } from "../state/types.js" */
/** @import { RenderContext } from "./render.js" */
import { h, t } from "./dom.js";
import { chooseOne, supervised } from "./supervisor.js";

/**
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
export function correctionButton(s, act) {
  const c = s.correction;
  if (!c) return "";
  if (c.kind === "put") {
    const ask = () =>
      chooseOne(
        t("ui.correct_put_ask", { quantity: c.quantity, slot: c.slot }),
        c.slots.map((slot) => ({
          label: `${t("ui.slot")} ${slot}`,
          pick: () => act({ type: "correct_put", slot }),
        })),
      );
    const el = h("button", { type: "button", class: "small warn", onclick: ask }, t("ui.correct_put"));
    return supervised(s, "correct_put", el);
  }
  const ask = () =>
    chooseOne(
      t("ui.wrong_bin_ask", { order: c.order, bin: c.bin }),
      c.bins.map((bin) => ({ label: t("ui.bin", { bin }), pick: () => act({ type: "wrong_bin", bin }) })),
    );
  const el = h("button", { type: "button", class: "small warn", onclick: ask }, t("ui.wrong_bin"));
  return supervised(s, "wrong_bin", el);
}
