// @ts-check
// The capture step of a pick (docs/capture.md#at-the-seat): the card says what to scan now ("Scan the
// serial number of TSHIRT") and shows the unit's values so far; a code input takes the value typed when
// the label is damaged (the `capture` action, the same path as a scan of it).
/** @import { CaptureAsk, ScreenState } from "../state/types.js" */
/** @import { RenderContext } from "./render.js" */
import { $, fill, h, msg, t } from "./dom.js";

/**
 * The card's lines while capturing: what to scan, and the values captured so far.
 * @param {CaptureAsk | null} c
 */
export function captureLines(c) {
  if (!c) return "";
  const values = c.values.map((v) => `${msg(v.label)}: ${v.value}`).join(" · ");
  return [
    c.ask ? h("p", { class: "capture-ask" }, msg(c.ask)) : "",
    values ? h("p", { class: "capture-values" }, values) : "",
  ];
}

/**
 * The code input for a damaged label, shown while a value is asked for. It is kept while the same value
 * is asked, so a push of the state does not wipe what is being typed.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
export function renderCapture(s, act) {
  const box = $("capture");
  const asked = s.capture?.asked ?? null;
  box.hidden = asked === null;
  if (asked === null) {
    fill(box);
    delete box.dataset.asked;
    return;
  }
  if (box.dataset.asked === `${asked}:${s.lang}`) return;
  box.dataset.asked = `${asked}:${s.lang}`;
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      id: "capture-code",
      "aria-label": t("ui.capture_typed"),
      autocomplete: "off",
      maxlength: "64",
    })
  );
  fill(
    box,
    h(
      "form",
      {
        class: "capture-form",
        onsubmit: (/** @type {SubmitEvent} */ ev) => {
          ev.preventDefault();
          const value = input.value.trim();
          input.value = "";
          if (value) act({ type: "capture", value });
        },
      },
      h("span", { class: "capture-label" }, t("ui.capture_typed")),
      input,
      h("button", { type: "submit", class: "primary" }, t("ui.capture_enter")),
    ),
  );
}
