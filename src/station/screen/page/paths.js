// @ts-check
// The shift's paths besides the happy line (docs/station.md#paths-of-a-shift): help from any state (a
// header button), what a restart did to the seat's lit work, the unscannable path, a full bin or box.
// Like render.js, it only draws what the agent sent; each tap is one of the screen's actions.
/** @import { Card, ScreenState, UnscannablePath } from "../state/types.js" */
/** @import { RenderContext } from "./render.js" */
import { $, fill, h, msg, t } from "./dom.js";

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
 * What a restart did to the work the seat had lit: until the operator says it was read.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function restart(s, act) {
  const r = s.restart ?? null;
  const el = $("restart");
  el.hidden = !r;
  if (!r) return fill(el);
  el.setAttribute("role", "group");
  el.setAttribute("aria-label", t("ui.restart_title"));
  fill(
    el,
    h("p", { class: "restart-text" }, msg(r.text)),
    h("p", { class: "restart-todo" }, h("strong", {}, msg(r.todo))),
    button(t("ui.acknowledge"), () => act({ type: "acknowledge_restart" }), "primary"),
  );
}

/**
 * A code typed at the seat (a label the scanner cannot read): the same as scanning it.
 * @param {RenderContext["act"]} act
 * @param {() => void} [done]
 */
function codeForm(act, done) {
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      id: "typed-code",
      "aria-label": t("ui.manual_code"),
      autocomplete: "off",
      placeholder: t("ui.manual_code"),
    })
  );
  return h(
    "form",
    {
      class: "manual typed",
      onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        const barcode = input.value.trim();
        input.value = "";
        if (!barcode) return;
        done?.();
        act({ type: "scan", barcode });
      },
    },
    input,
    h("button", { type: "submit", class: "primary" }, t("ui.manual_enter")),
  );
}

/** The unscannable path the open dialog was drawn for (closed when the agent's changes). */
let unscannableOpen = "";

/**
 * Unscannable at a lit pick: first what identifies the unit instead (its slot's label, its code typed),
 * and only then, asked once more with what it does, the write-off.
 * @param {UnscannablePath} u
 * @param {RenderContext["act"]} act
 */
export function openUnscannable(u, act) {
  unscannableOpen = JSON.stringify(u);
  const close = () => {
    unscannableOpen = "";
    closeDialog();
  };
  const writeOff = () =>
    dialog(
      u.writeOff === 1
        ? t("ui.write_off_one", { order: u.order })
        : t("ui.write_off_many", { n: u.writeOff, order: u.order }),
      [],
      [
        button(t("ui.back"), () => openUnscannable(u, act)),
        button(
          t("ui.write_off_yes"),
          async () => {
            close();
            await act({ type: "exception", code: "UNSCANNABLE" });
          },
          "warn",
        ),
      ],
    );
  dialog(
    t("ui.unscannable_title"),
    [
      h(
        "p",
        { class: "path-hint" },
        u.scanEach
          ? t("ui.unscannable_slot", { slot: u.slot })
          : t("ui.unscannable_lit", { bin: u.bin, slot: u.slot }),
      ),
      codeForm(act, close),
      h("p", { class: "path-hint" }, t("ui.unscannable_neither")),
    ],
    [button(t("ui.back"), close), button(t("ui.write_off"), writeOff, "warn")],
  );
}

/**
 * A code can always be typed at the seat: where neither the simulated scanner's box nor the scanner-down
 * notice offers it, a button in the action bar does.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function typeCode(s, act) {
  if (s.operator === null || s.simulatedScanner || s.manualEntry) return;
  $("actions").append(
    button(t("ui.type_code"), () =>
      dialog(t("ui.type_code_title"), [codeForm(act, closeDialog)], [button(t("ui.back"), closeDialog)]),
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
  restart(s, ctx.act);
  typeCode(s, ctx.act);
  // a dialog drawn for an unscannable unit that is counted, picked or gone meanwhile is out of date
  if (unscannableOpen && unscannableOpen !== JSON.stringify(s.unscannable ?? null)) {
    unscannableOpen = "";
    closeDialog();
  }
}
