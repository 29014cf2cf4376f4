// @ts-check
// The operator screen's numpad (docs/station.md#operator-screen): a quantity keyed on the panel, refused
// as it is keyed when impossible (OK only takes 1 … max), centred over the page and never larger than
// the window.
/** @import { NumpadOptions } from "./render.js" */
import { $, $as, fill, h, msg, t } from "./dom.js";

/**
 * @param {string} label
 * @param {() => unknown} onclick
 * @param {string} [cls]
 * @param {Record<string, string>} [extra] more attributes
 */
const button = (label, onclick, cls = "", extra = {}) =>
  h("button", { type: "button", class: cls, onclick, ...extra }, label);

/** The page disables what it draws while the agent is lost: it is told a dialog was drawn. */
const drawn = () => document.dispatchEvent(new Event("controls"));

/** @type {NumpadOptions["done"] | null} */
let numpadDone = null;
let numpadMax = 999999;

/** The numpad's entry (an `<output>`: the keys type into it, not a keyboard). */
const entry = () => $as("numpad-value", HTMLOutputElement);

/**
 * Asks for a quantity (render.js `NumpadOptions`).
 * @param {NumpadOptions} opts
 */
export function openNumpad({ keyin = null, max, initial = "", title, done }) {
  numpadDone = done;
  numpadMax = max ?? keyin?.max ?? 999999;
  entry().value = initial;
  $("numpad-title").textContent = title ?? t("ui.key_in");
  $("numpad-item").textContent = keyin
    ? keyin.label
      ? msg(keyin.label)
      : t("ui.numpad_item", { item: keyin.item, expected: keyin.expected })
    : "";
  $("numpad-item").hidden = !keyin;
  const digit = (/** @type {number} */ d) =>
    button(String(d), () => key(String(d)), "key", {
      "data-digit": String(d),
      "aria-controls": "numpad-value",
    });
  fill(
    $("numpad-keys"),
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map(digit),
    button(t("ui.numpad_clear"), () => key(null), "key"),
    digit(0),
    button("⌫", () => key(""), "key", { "aria-label": t("ui.numpad_delete") }),
  );
  fill(
    $("numpad-bar"),
    button(t("ui.numpad_close"), closeNumpad),
    button(t("ui.numpad_ok"), submitNumpad, "primary", { id: "numpad-ok" }),
  );
  $("numpad").setAttribute("aria-labelledby", "numpad-title");
  $("numpad").hidden = false;
  checkEntry();
  drawn();
}

/**
 * A key: a digit appends, "" takes the last one back, null clears.
 * @param {string | null} d
 */
function key(d) {
  const v = entry().value;
  if (d === null) entry().value = "";
  else if (d === "") entry().value = v.slice(0, -1);
  else if (v.length < 6 && Number(v + d) <= numpadMax && !(v === "" && d === "0")) entry().value = v + d;
  checkEntry();
}

/** Marks an impossible entry and disables what cannot be keyed: OK only takes 1 … max. */
function checkEntry() {
  const v = entry().value;
  const n = Number(v);
  const bad = v !== "" && (n < 1 || n > numpadMax);
  entry().setAttribute("aria-invalid", bad ? "true" : "false");
  $("numpad-error").textContent =
    n > numpadMax
      ? t("ui.numpad_too_many", { max: numpadMax })
      : v !== "" && n < 1
        ? t("ui.numpad_zero")
        : "";
  $("numpad-error").hidden = !$("numpad-error").textContent;
  for (const b of $("numpad-keys").querySelectorAll("[data-digit]")) {
    if (!(b instanceof HTMLButtonElement)) continue;
    const d = b.dataset.digit ?? "";
    b.disabled = v.length >= 6 || Number(v + d) > numpadMax || (v === "" && d === "0");
  }
  const ok = document.getElementById("numpad-ok");
  if (ok instanceof HTMLButtonElement) ok.disabled = v === "" || bad;
  document.body.dataset.numpad = bad ? "invalid" : "ok";
}

export function closeNumpad() {
  $("numpad").hidden = true;
  numpadDone = null;
}

function submitNumpad() {
  const q = Number(entry().value);
  const done = numpadDone;
  if (!Number.isInteger(q) || q < 1 || q > numpadMax) return checkEntry();
  closeNumpad();
  done?.(q);
}
