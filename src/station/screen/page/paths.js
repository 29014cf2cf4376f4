// @ts-check
// The shift's paths besides the happy line (docs/station.md#paths-of-a-shift): help from any state (a
// header button), what a restart did to the seat's lit work, the unscannable path, a full bin or box.
// Like render.js, it only draws what the agent sent; each tap is one of the screen's actions.
/** @import { Card, ScreenState } from "../state/types.js" */
/** @import { RenderContext } from "./render.js" */
import { $, fill, h, t } from "./dom.js";

/**
 * @param {string} label
 * @param {() => unknown} onclick
 * @param {string} [cls]
 * @param {Record<string, string>} [extra]
 */
const button = (label, onclick, cls = "", extra = {}) =>
  h("button", { type: "button", class: cls, onclick, ...extra }, label);

/**
 * A dialog in the page's one overlay for dialogs (index.html `#problem`), focused on its first button.
 * @param {string} title
 * @param {import("./dom.js").Child[]} body
 * @param {HTMLElement[]} bar
 */
export function dialog(title, body, bar) {
  fill(
    $("problem-box"),
    h("h2", { id: "problem-title", class: "dialog-title" }, title),
    h("div", { class: "dialog-body" }, body),
    h("div", { class: "dialog-bar" }, bar),
  );
  $("problem").setAttribute("aria-labelledby", "problem-title");
  $("problem").hidden = false;
  document.dispatchEvent(new Event("controls"));
  const first = $("problem-box").querySelector("input, button:not([disabled])");
  if (first instanceof HTMLElement) first.focus();
}

export function closeDialog() {
  $("problem").hidden = true;
}

/**
 * Help from any state: a header button, asked once more so a stray tap calls nobody.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function help(s, act) {
  const call = async () => {
    closeDialog();
    await act({ type: "supervisor" });
  };
  fill(
    $("help"),
    button(
      t("ui.help"),
      () =>
        dialog(
          t("ui.help_confirm", { seat: s.seat }),
          [],
          [button(t("ui.back"), closeDialog), button(t("ui.help_call"), call, "warn")],
        ),
      "warn small",
    ),
  );
}

/**
 * What a put card says to do: put into the suggested slot (or scan any slot), or into the scanned one.
 * @param {Card} c
 */
export function putCardDo(c) {
  if (!c.suggested) return t("ui.card_put_slot", { slot: c.slot });
  return c.slot ? t("ui.card_suggested", { slot: c.slot }) : t("ui.card_any_slot");
}

/**
 * Draws the paths' parts of the state.
 * @param {ScreenState} s
 * @param {RenderContext} ctx
 */
export function renderPaths(s, ctx) {
  help(s, ctx.act);
}
