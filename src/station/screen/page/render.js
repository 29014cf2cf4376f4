// @ts-check
// Renders one screen state (src/station/screen/state/types.ts): the page never decides what to show,
// it only draws what the agent sent. `act(body)` sends a tap; `openNumpad()` asks for a quantity.
/** @import { KeyIn, ScreenState } from "../state/types.js" */

import { renderCapture } from "./capture.js";
import { correctionButton } from "./correction.js";
import { $, fill, h, msg, t } from "./dom.js";
import { closeLanguages, languageButton } from "./language.js";
import { openUnscannable, renderPaths } from "./paths.js";
import { askFirst, supervised } from "./supervisor.js";
import { renderTask } from "./task.js";
import { training, trainingControls } from "./training.js";

/**
 * A tap: one of the screen's actions, `{type, …}` (docs/station.md#operator-screen, "Actions").
 * @typedef {{ type: string, [field: string]: unknown }} Tap
 */

/**
 * What the numpad asks for: `keyin` (the state's) says what is counted, `max` (or keyin.max) bounds it,
 * `initial` is keyed in already, `title` heads it; `done(q)` gets a possible quantity.
 * @typedef {object} NumpadOptions
 * @property {KeyIn | null} [keyin]
 * @property {number} [max]
 * @property {string} [initial]
 * @property {string} [title]
 * @property {(quantity: number) => void} done
 */

/**
 * What the page gives `render` besides the state: the language, the languages to choose (code → name), and
 * what a tap does (`act` resolves to whether the agent took it).
 * @typedef {object} RenderContext
 * @property {string} lang
 * @property {Readonly<Record<string, string>>} langs
 * @property {(body: Tap) => Promise<boolean>} act
 * @property {(opts: NumpadOptions) => void} openNumpad
 * @property {(label: string, report: () => Promise<unknown>) => void} confirmException
 * @property {() => void} openProblems
 */

/**
 * @param {string} label
 * @param {() => unknown} onclick
 * @param {string} [cls]
 */
const button = (label, onclick, cls = "") => h("button", { type: "button", class: cls, onclick }, label);

/**
 * @param {ScreenState} s
 * @param {string} lang the language the page speaks
 * @param {RenderContext["langs"]} langs
 * @param {RenderContext["act"]} act
 */
function header(s, lang, langs, act) {
  $("title").textContent = t("ui.title", { ppsId: s.ppsId, seat: s.seat });
  $("mode").textContent = t(`mode.${s.mode}`);
  $("mode").dataset.mode = s.mode;
  $("operator").textContent = `${t("ui.operator")}: ${s.operator ?? t("ui.nobody")}`;
  if (!$("connection").textContent) $("connection").textContent = t("ui.connection_ok");
  const down = s.devices.filter((d) => !d.connected);
  fill(
    $("devices"),
    down.length
      ? down.map((d) => h("span", { class: "down" }, t("ui.device_down", { device: d.id })))
      : h("span", { class: "ok" }, t("ui.devices_ok")),
  );
  if (!s.allowed.language) closeLanguages();
  fill($("languages"), s.allowed.language ? languageButton(lang, langs, act) : []);
}

/**
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function bins(s, act) {
  const tiles = s.bins.map((b) => {
    const l = b.light;
    const shown = l.mode === "show";
    const actions = b.actions.map((a) =>
      button(t(`ui.bin_${a}`, { bin: b.id }), () => act({ type: a, bin: b.id }), "small"),
    );
    const outcome = b.outcome;
    const error = b.signal === "error";
    return h(
      "div",
      {
        role: "group",
        "aria-label": t("ui.bin", { bin: b.id }),
        class: `bin${b.mine ? " mine" : ""}`,
        "data-light": shown ? l.color : "off",
        "data-blink": shown && l.blink ? "true" : "false",
        "data-signal": error ? "error" : "none",
        "data-outcome": outcome ?? "none",
      },
      h("span", { class: "bin-id" }, b.id),
      h("span", { class: "bin-qty" }, shown && l.quantity !== undefined ? String(l.quantity) : ""),
      error ? h("span", { class: "bin-flag error" }, t("ui.bin_signal_error")) : "",
      outcome ? h("span", { class: `bin-flag ${outcome}` }, t(`ui.outcome_${outcome}`)) : "",
      h("span", { class: "bin-state" }, t(`bin.${b.state}`)),
      h("span", { class: "bin-orders" }, b.orders.map((o) => o.id).join(", ")),
      b.printError && !s.notices.some((n) => n.kind === "printer_failed")
        ? h("span", { class: "bin-error" }, t("ui.label_not_printed"))
        : "",
      actions,
    );
  });
  fill(
    $("bins"),
    h("h2", {}, t("ui.bins")),
    h("div", { class: "bin-grid", "data-count": String(tiles.length) }, tiles),
  );
  $("bins").setAttribute("aria-label", t("ui.bins"));
  // the panel scrolls when the bins do not fit: a keyboard reaches it too
  $("bins").tabIndex = 0;
}

/**
 * After a confirm: what to do about a unit put wrong, with the supervisor's call at hand.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function afterConfirm(s, act) {
  const note = s.afterConfirm;
  if (!note) return "";
  return h(
    "span",
    { class: "after-confirm" },
    h("span", {}, msg(note)),
    button(t("ui.notice_supervisor"), () => act({ type: "supervisor" }), "small warn"),
    correctionButton(s, act),
  );
}

/** @param {ScreenState} s */
function last(s) {
  const e = s.lastEvent;
  const el = $("last");
  el.setAttribute("aria-label", t("ui.last_event"));
  el.dataset.tone = e ? e.tone : "none";
  if (!e) return fill(el, h("span", {}, t("ui.last_event")));
  fill(
    el,
    h("span", { class: "last-label" }, `${t("ui.last_event")}:`),
    h("span", { class: "last-text" }, e.said ? msg(e.said) : t(`ui.via_${e.input}`, { text: e.text })),
    h("span", { class: "last-result" }, msg(e.message)),
  );
}

/**
 * @param {ScreenState} s
 * @param {RenderContext} ctx
 */
function actions(s, ctx) {
  const { act, openNumpad } = ctx;
  const a = s.allowed;
  const out = [];
  if (a.confirm) out.push(button(t("ui.confirm"), () => act({ type: "confirm" }), "primary"));
  const ask = s.closeSlotAsks;
  if (a.closeSlot)
    out.push(
      button(
        t("ui.close_slot"),
        // closing before any count counts every line 0: asked first
        () =>
          ask
            ? askFirst(msg(ask), "ui.close_slot_yes", () => act({ type: "confirm" }))
            : act({ type: "confirm" }),
        "primary",
      ),
    );
  if (s.undo) out.push(button(t("ui.undo"), () => act({ type: "undo" })));
  const queued = s.auditQueued;
  if (queued)
    out.push(button(t("ui.begin_audit", { audit: queued }), () => act({ type: "audit_begin" }), "primary"));
  if (a.keyin)
    out.push(button(t("ui.key_in"), () => openNumpad({ done: (q) => act({ type: "keyin", quantity: q }) })));
  if (s.problems.length) out.push(button(t("ui.problem"), () => ctx.openProblems(), "warn problem"));
  for (const code of a.exceptions) {
    // in pick and put an exception ends units of the order: a stray tap must not do that. One the
    // problem report covers is reported there (its quantity keyed, then confirmed); the others ask
    // first. In audit an exception is one unit counted, and is taken at once.
    if (s.mode === "audit") {
      out.push(button(t(`exception.${code}`), () => act({ type: "exception", code }), "warn"));
      continue;
    }
    if (s.problems.some((p) => p.replaces === code)) continue;
    const unscannable = s.unscannable;
    if (code === "UNSCANNABLE" && unscannable) {
      out.push(button(t(`exception.${code}`), () => openUnscannable(unscannable, act), "warn"));
      continue;
    }
    out.push(
      button(
        t(`exception.${code}`),
        () => ctx.confirmException(t(`exception.${code}`), () => act({ type: "exception", code })),
        "warn",
      ),
    );
  }
  if (a.cancel) out.push(button(t("ui.cancel"), () => act({ type: "cancel" })));
  for (const mode of a.modes)
    out.push(
      supervised(
        s,
        "mode",
        button(t("ui.switch_mode", { mode: t(`mode.${mode}`) }), () => act({ type: "mode", mode }), "small"),
      ),
    );
  if (a.logout) out.push(button(t("ui.log_out"), () => act({ type: "logout" }), "small"));
  fill($("actions"), out);
}

/**
 * A refused scan takes over the instruction area until the agent drops it: why, what, and what instead.
 * @param {ScreenState} s
 */
function alert(s) {
  const a = s.alert;
  const el = $("alert");
  el.hidden = !a;
  $("instruction").hidden = !!a;
  document.body.dataset.alert = a ? a.kind : "none";
  if (!a) return fill(el);
  fill(
    el,
    h("p", { class: "alert-reason" }, msg(a.reason)),
    a.code ? h("p", { class: "alert-code" }, t("ui.alert_code", { code: a.code })) : "",
    a.item ? h("p", { class: "alert-item" }, t("ui.alert_item", { item: a.item })) : "",
    a.instead
      ? h(
          "p",
          { class: "alert-instead" },
          h("span", {}, `${t("ui.alert_instead")} `),
          h("strong", {}, msg(a.instead)),
        )
      : "",
  );
}

/**
 * Devices and printers in plain words, each with what the operator can do about it.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function notices(s, act) {
  const out = s.notices.map((n) => {
    const parts = [h("span", { class: "notice-text" }, msg(n.text))];
    if (n.kind === "lights_down" && n.bins?.length)
      parts.push(h("strong", { class: "notice-bins" }, t("ui.watch_bins", { bins: n.bins.join(", ") })));
    if (n.kind === "scanner_down" && s.manualEntry) {
      const input = /** @type {HTMLInputElement} */ (
        h("input", {
          id: "manual-code",
          "aria-label": t("ui.manual_code"),
          autocomplete: "off",
          placeholder: t("ui.manual_code"),
        })
      );
      parts.push(
        h(
          "form",
          {
            class: "manual",
            onsubmit: (/** @type {SubmitEvent} */ ev) => {
              ev.preventDefault();
              const barcode = input.value.trim();
              input.value = "";
              if (barcode) act({ type: "scan", barcode });
            },
          },
          input,
          h("button", { type: "submit", class: "primary" }, t("ui.manual_enter")),
        ),
      );
    }
    const bin = n.bins?.[0];
    for (const a of n.actions ?? []) {
      if (a === "reprint") parts.push(button(t("ui.notice_reprint"), () => act({ type: "reprint", bin })));
      if (a === "skip")
        parts.push(
          supervised(
            s,
            "skip_label",
            button(t("ui.notice_skip"), () => act({ type: "skip_label", bin })),
          ),
        );
      if (a === "supervisor")
        parts.push(button(t("ui.notice_supervisor"), () => act({ type: "supervisor", bin }), "warn"));
    }
    return h("div", { class: "notice", "data-kind": n.kind, role: "status" }, parts);
  });
  fill($("notices"), out);
  $("notices").hidden = out.length === 0;
}

/**
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
function login(s, act) {
  $("login").hidden = !s.allowed.login;
  $("login-label").textContent = t("ui.badge");
  $("login-submit").textContent = t("ui.log_in");
  fill(
    $("operators"),
    s.operators.map((name) => button(t("ui.log_in_as", { name }), () => act({ type: "login", user: name }))),
  );
}

/** The current line of a long list stays in view inside its own panel (the page itself never scrolls). */
export function keepInView() {
  for (const el of document.querySelectorAll(".list .lit")) el.scrollIntoView({ block: "nearest" });
}

/**
 * Draws the state.
 * @param {ScreenState} s
 * @param {RenderContext} ctx
 */
export function render(s, ctx) {
  document.documentElement.lang = ctx.lang;
  $("main").hidden = false;
  header(s, ctx.lang, ctx.langs, ctx.act);
  training(s);
  $("instruction").textContent = msg(s.instruction);
  alert(s);
  notices(s, ctx.act);
  renderCapture(s, ctx.act);
  login(s, ctx.act);
  trainingControls(s, ctx.act);
  fill($("task"), renderTask(s));
  $("task").setAttribute("aria-label", t("ui.task"));
  bins(s, ctx.act);
  last(s);
  $("last").append(afterConfirm(s, ctx.act));
  actions(s, ctx);
  keepInView();
  $("sim").hidden = !s.simulatedScanner;
  $("sim-label").textContent = t("ui.sim_scanner");
  $("sim-submit").textContent = t("ui.sim_scan");
  renderPaths(s, ctx);
  shift(s);
}

// ---- the shift lead's figures and the idle warning (docs/station.md#productivity-and-the-shift) ----

/**
 * One figure an hour, and in words where it stands against its target (not by colour alone).
 * @param {"shift.lines" | "shift.units"} key
 * @param {number} value
 * @param {"below" | "at" | "above" | null} standing
 */
function figure(key, value, standing) {
  return h(
    "span",
    { class: "figure", "data-standing": standing ?? "none" },
    t(key, { value }),
    standing ? h("span", { class: "standing" }, t(`shift.standing_${standing}`)) : "",
  );
}

/**
 * Lines and units an hour over the last 15 minutes against the targets, and over the session; the idle
 * warning with its countdown, or who was signed out for idling.
 * @param {ScreenState} s
 */
function shift(s) {
  const p = s.productivity;
  const el = $("productivity");
  el.hidden = !p;
  el.setAttribute("aria-label", t("shift.title"));
  if (p) {
    fill(
      el,
      h("span", { class: "figure-label" }, t("shift.recent")),
      p.recent
        ? [
            figure("shift.lines", p.recent.linesPerHour, p.standing.lines),
            figure("shift.units", p.recent.unitsPerHour, p.standing.units),
          ]
        : h("span", { class: "figure" }, t("shift.too_early")),
      h("span", { class: "figure-label" }, t("shift.session")),
      p.session
        ? [
            figure("shift.lines", p.session.linesPerHour, null),
            figure("shift.units", p.session.unitsPerHour, null),
          ]
        : h("span", { class: "figure" }, t("shift.too_early")),
    );
  } else fill(el);
  const idle = s.idle;
  const box = $("idle");
  box.hidden = !idle;
  box.dataset.kind = idle ? idle.kind : "none";
  if (!idle) return fill(box);
  fill(
    box,
    idle.kind === "warning"
      ? t("shift.idle_warning", { seconds: idle.seconds })
      : t("shift.signed_out", { operator: idle.operator }),
  );
}
