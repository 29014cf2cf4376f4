// @ts-check
// A supervisor at the seat (docs/station.md#supervisor-at-the-seat): a tap the screen's session may not
// make by itself (the state's `supervised`) asks for a supervisor's badge (scanned into the field: a
// keyboard-wedge scanner types it) or PIN (typed on the keys); the credential goes with that one tap and
// authorises it only. Also the question asked before a step that cannot be taken back (an audit slot
// closed before any count).
/** @import { MessageKey } from "../messages/en.js" */
/** @import { ScreenState } from "../state/types.js" */
/** @import { Tap } from "./render.js" */
import { $, fill, h, t } from "./dom.js";

/**
 * What the agent answered a supervised tap: taken, a wrong credential, or too many wrong ones.
 * @typedef {"ok" | "refused" | "throttled" | "stale" | "other"} SupervisedAnswer
 */

/**
 * @param {string} label
 * @param {() => unknown} onclick
 * @param {string} [cls]
 * @param {Record<string, string>} [extra]
 */
const button = (label, onclick, cls = "", extra = {}) =>
  h("button", { type: "button", class: cls, onclick, ...extra }, label);

const MAX_PIN = 12;

/**
 * The open supervisor's prompt, as the agent is told of it: a supervisor's badge scanned on the seat's
 * own scanner then authorises its tap (`supervisor_prompt`); the answer comes with the state
 * (`supervisorScan`, counted by `n`).
 * @type {{ body: Tap, post: (body: Tap) => Promise<Response | null>, registered: number | null, seen: number } | null}
 */
let scanPrompt = null;

/**
 * Tells the agent the prompt is open for this tap, on the state shown now (the stale-tap rule).
 * @param {ScreenState} s
 */
async function register(s) {
  const open = scanPrompt;
  if (!open) return;
  const version = s.version;
  const res = await open.post({
    type: "supervisor_prompt",
    pending: { ...open.body, version },
    seen: open.seen,
  });
  if (res?.ok && scanPrompt === open) open.registered = version;
}

/**
 * Each state shown: the open prompt follows it, and takes the answer to a badge scanned on the scanner.
 * @param {ScreenState} s
 */
export function supervisorSeen(s) {
  const open = scanPrompt;
  if (!open) return;
  const answer = s.supervisorScan;
  if (answer && answer.n > open.seen) {
    open.seen = answer.n;
    if (answer.answer === "ok" || answer.answer === "stale" || answer.answer === "other") {
      closeSupervisor();
      return;
    }
    $("supervisor-note").textContent = t(
      answer.answer === "throttled" ? "ui.supervisor_throttled" : "ui.supervisor_refused",
    );
  }
  if (open.registered !== s.version) register(s);
}

/**
 * What a supervised tap does, in words (the supervisor's prompt names it).
 * @param {Tap} body
 */
function tapWords(body) {
  if (body.type === "mode")
    return t("ui.switch_mode", { mode: t(/** @type {MessageKey} */ (`mode.${String(body.mode)}`)) });
  if (body.type === "skip_label") return t("ui.notice_skip");
  // a supervisor's pause and resume (docs/station.md#pausing-a-seat): the words of their buttons
  if (body.type === "pause") return t("ui.pause");
  if (body.type === "resume") return t("ui.resume");
  // training from the screen (docs/station.md#training): the words of its buttons
  if (body.type === "training") return t(body.training ? "ui.training_enter" : "ui.training_leave");
  if (body.type === "training_reset") return t("ui.training_reset");
  // a unit put wrong after a confirm (docs/station.md#undo): the words of their buttons
  if (body.type === "correct_put") return t("ui.correct_put");
  if (body.type === "wrong_bin") return t("ui.wrong_bin");
  return body.type;
}

/**
 * A tap the screen's session may not make by itself is marked as a supervisor's: tapping it asks for
 * a supervisor's badge or PIN (supervisor.js), never answers 403.
 * @param {ScreenState} s
 * @param {string} type
 * @param {HTMLElement} el
 */
export function supervised(s, type, el) {
  if (!s.supervised.includes(type)) return el;
  el.classList.add("supervised");
  el.append(" ", h("span", { class: "sup-mark" }, t("ui.supervisor_mark")));
  return el;
}

/**
 * A tap the state names as a supervisor's, made without a credential: asks for one and sends the tap
 * with it (`post`). False when the tap needs no supervisor (the caller sends it as it is).
 * @param {ScreenState | null} state
 * @param {Tap} body
 * @param {(body: Tap) => Promise<Response | null>} post
 */
export function supervisedTap(state, body, post) {
  if (!state?.supervised?.includes(body.type) || body.supervisor !== undefined) return false;
  scanPrompt = null;
  openSupervisor(tapWords(body), async (supervisor) => {
    const res = await post({ ...body, supervisor });
    if (res?.ok) return "ok";
    if (res?.status === 429) return "throttled";
    // the screen changed since the tap (stale-tap rule): the page says so and shows the new state; the
    // supervisor taps again on it (docs/station.md#supervisor-at-the-seat)
    if (res?.status === 409) return "stale";
    return res?.status === 403 ? "refused" : "other";
  });
  scanPrompt = { body, post, registered: null, seen: state.supervisorScan?.n ?? 0 };
  register(state);
  return true;
}

export function closeSupervisor() {
  $("supervisor").hidden = true;
  const open = scanPrompt;
  scanPrompt = null;
  // the agent forgets the prompt: a badge scanned now authorises nothing (sent again while another
  // tap is on its way)
  if (open) forget(open.post, 20);
}

/**
 * @param {(body: Tap) => Promise<Response | null>} post
 * @param {number} tries
 */
async function forget(post, tries) {
  const res = await post({ type: "supervisor_prompt", pending: null });
  if (res === null && tries > 1 && !scanPrompt) setTimeout(() => forget(post, tries - 1), 250);
}

/**
 * @param {string} title
 * @param {(HTMLElement | string)[]} body
 * @param {HTMLElement[]} bar
 */
function box(title, body, bar) {
  fill(
    $("supervisor-box"),
    h("h2", { id: "supervisor-title", class: "dialog-title" }, title),
    h("div", { class: "dialog-body supervisor-body" }, body),
    h("div", { class: "dialog-bar" }, bar),
  );
  $("supervisor").setAttribute("aria-labelledby", "supervisor-title");
  $("supervisor").hidden = false;
  document.dispatchEvent(new Event("controls"));
}

/**
 * Asks before a step that cannot be taken back: `question`, then `yes` does it.
 * @param {string} question
 * @param {MessageKey} yesKey
 * @param {() => unknown} yes
 */
export function askFirst(question, yesKey, yes) {
  box(
    question,
    [],
    [
      button(t("ui.back"), closeSupervisor),
      button(
        t(yesKey),
        () => {
          closeSupervisor();
          yes();
        },
        "primary",
      ),
    ],
  );
}

/**
 * Asks for a supervisor's badge or PIN for one tap: `send(credential)` makes the tap with it.
 * @param {string} action what the tap does, in words
 * @param {(credential: { badge: string } | { pin: string }) => Promise<SupervisedAnswer>} send
 */
export function openSupervisor(action, send) {
  let pin = "";
  const shown = /** @type {HTMLOutputElement} */ (
    h("output", { id: "supervisor-pin", class: "numpad-value", "aria-label": t("ui.supervisor_pin") }, "")
  );
  const note = h("p", { id: "supervisor-note", class: "numpad-error", role: "alert" }, "");
  const badge = /** @type {HTMLInputElement} */ (
    h("input", {
      id: "supervisor-badge",
      type: "password",
      autocomplete: "off",
      "aria-label": t("ui.supervisor_badge"),
    })
  );
  const redraw = () => {
    shown.textContent = "•".repeat(pin.length);
  };
  /** @param {{ badge: string } | { pin: string }} credential */
  const submit = async (credential) => {
    const answer = await send(credential);
    pin = "";
    badge.value = "";
    redraw();
    if (answer === "ok" || answer === "stale") return closeSupervisor();
    note.textContent = t(answer === "throttled" ? "ui.supervisor_throttled" : "ui.supervisor_refused");
  };
  const digit = (/** @type {number} */ d) =>
    button(
      String(d),
      () => {
        if (pin.length < MAX_PIN) pin += String(d);
        redraw();
      },
      "key",
    );
  const keys = h(
    "div",
    { class: "numpad-keys" },
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map(digit),
    button(
      t("ui.numpad_clear"),
      () => {
        pin = "";
        redraw();
      },
      "key",
    ),
    digit(0),
    button(
      "⌫",
      () => {
        pin = pin.slice(0, -1);
        redraw();
      },
      "key",
      { "aria-label": t("ui.numpad_delete") },
    ),
  );
  const form = h(
    "form",
    {
      class: "manual",
      onsubmit: (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        if (badge.value.trim()) submit({ badge: badge.value.trim() });
      },
    },
    badge,
  );
  box(
    t("ui.supervisor_title", { action }),
    [h("p", { class: "numpad-item" }, t("ui.supervisor_prompt")), form, shown, note, keys],
    [
      button(t("ui.numpad_close"), closeSupervisor),
      button(t("ui.supervisor_ok"), () => (pin ? submit({ pin }) : undefined), "primary", {
        id: "supervisor-ok",
      }),
    ],
  );
  badge.focus();
}

/**
 * Asks which of `options` is meant (a correction's slot or bin, docs/station.md#undo); picking one
 * closes the question and does it.
 * @param {string} question
 * @param {Array<{ label: string, pick: () => unknown }>} options
 */
export function chooseOne(question, options) {
  box(
    question,
    [
      h(
        "div",
        { class: "choices" },
        options.map((o) =>
          button(o.label, () => {
            closeSupervisor();
            o.pick();
          }),
        ),
      ),
    ],
    [button(t("ui.back"), closeSupervisor)],
  );
}
