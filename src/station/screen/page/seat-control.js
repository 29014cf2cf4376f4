// @ts-check
// What central or a supervisor told the seat, on the page (docs/station.md#pausing-a-seat): the pause
// over the task (who or what paused it, why, since when; Resume where a supervisor may), a message to
// acknowledge, and the supervisor's Pause with its reason. Renders only what the state says.
/** @import { ScreenState } from "../state/types.js" */
/** @import { Tap } from "./render.js" */
import { $, $as, fill, h, t } from "./dom.js";
import { supervised } from "./supervisor.js";

/** @type {Record<string, "ui.paused_by_central" | "ui.paused_by_supervisor" | "ui.paused_by_input">} */
const BY = {
  central: "ui.paused_by_central",
  supervisor: "ui.paused_by_supervisor",
  input: "ui.paused_by_input",
};

/** @param {string} iso */
const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/**
 * @param {ScreenState} s
 * @param {(body: Tap) => Promise<boolean>} act
 */
function paused(s, act) {
  const el = $("paused");
  const pause = s.pause;
  el.hidden = pause === null;
  if (!pause) return;
  fill(
    $("paused-box"),
    h("h2", { id: "paused-title", class: "dialog-title" }, t("ui.paused_title")),
    h(
      "ul",
      { class: "paused-sources" },
      ...pause.sources.map((p) =>
        h(
          "li",
          {},
          h("span", { class: "paused-by" }, t(BY[p.kind] ?? "ui.paused_by_central", { by: p.by })),
          h("span", { class: "paused-reason" }, p.reason),
          h("span", { class: "paused-since" }, t("ui.paused_since", { time: clock(p.since) })),
        ),
      ),
    ),
    pause.sources.some((p) => p.kind === "input") && h("p", { class: "note" }, t("ui.paused_input_note")),
    pause.resumable &&
      h(
        "div",
        { class: "dialog-bar" },
        supervised(
          s,
          "resume",
          h(
            "button",
            { type: "button", class: "primary", onclick: () => act({ type: "resume" }) },
            t("ui.resume"),
          ),
        ),
      ),
  );
}

/**
 * @param {ScreenState} s
 * @param {(body: Tap) => Promise<boolean>} act
 */
function message(s, act) {
  const m = s.message;
  // a pause covers the page first; its message waits behind it
  $("message").hidden = m === null || s.pause !== null;
  if (!m) return;
  fill(
    $("message-box"),
    h("h2", { id: "message-title", class: "dialog-title" }, t("ui.message_title", { by: m.by })),
    h("p", { class: "message-text" }, m.text),
    h(
      "div",
      { class: "dialog-bar" },
      h(
        "button",
        { type: "button", class: "primary", onclick: () => act({ type: "acknowledge", id: m.id }) },
        t("ui.message_acknowledge"),
      ),
    ),
  );
}

/**
 * The supervisor's Pause in the header, and its dialog asking the reason.
 * @param {ScreenState} s
 * @param {(body: Tap) => Promise<boolean>} act
 */
function pauseButton(s, act) {
  fill(
    $("seat-control"),
    s.pause === null &&
      supervised(
        s,
        "pause",
        h("button", { type: "button", class: "pause-seat", onclick: () => openPause(act) }, t("ui.pause")),
      ),
  );
}

/** @param {(body: Tap) => Promise<boolean>} act */
function openPause(act) {
  const reason = h("input", {
    id: "pause-reason",
    "aria-labelledby": "pause-reason-label",
    autocomplete: "off",
  });
  const close = () => {
    $("pause-dialog").hidden = true;
  };
  fill(
    $("pause-box"),
    h("h2", { id: "pause-title", class: "dialog-title" }, t("ui.pause")),
    h(
      "form",
      {
        class: "dialog-body",
        onsubmit: (/** @type {Event} */ ev) => {
          ev.preventDefault();
          const text = $as("pause-reason", HTMLInputElement).value.trim();
          if (!text) return;
          close();
          act({ type: "pause", reason: text });
        },
      },
      h("span", { id: "pause-reason-label" }, t("ui.pause_reason")),
      reason,
      h(
        "div",
        { class: "dialog-bar" },
        h("button", { type: "button", onclick: close }, t("ui.cancel_dialog")),
        h("button", { type: "submit", class: "primary" }, t("ui.pause_confirm")),
      ),
    ),
  );
  $("pause-dialog").hidden = false;
  if (reason instanceof HTMLInputElement) reason.focus();
  document.dispatchEvent(new Event("controls"));
}

/**
 * @param {ScreenState} s
 * @param {(body: Tap) => Promise<boolean>} act
 */
export function renderSeatControl(s, act) {
  paused(s, act);
  message(s, act);
  pauseButton(s, act);
}
