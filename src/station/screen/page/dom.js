// Small DOM helpers and the message catalogue of the operator screen (no framework, no build step).

let catalogue = {};
let fallback = {};

/**
 * Texts of the page itself, used while the agent's catalogue lacks them (the catalogue wins when it has
 * the key): a key is never shown as such.
 */
const FALLBACK = {
  en: {
    "ui.connection_ok": "Connected",
    "ui.connection_lost_short": "Connection lost",
    "ui.line_of": "Line {n} of {m}",
    "ui.lines": "All lines",
    "ui.stale_screen": "The screen changed: look again",
    "ui.card_take": "Take from slot {slot}",
    "ui.card_put": "Put into bin {bin}",
    "ui.rack_face": "Rack face, slot {slot} highlighted",
    "ui.alert_code": "Scanned: {code}",
    "ui.alert_item": "Item: {item}",
    "ui.alert_instead": "Do instead:",
    "ui.problem": "Problem",
    "ui.problem_title": "What is the problem?",
    "ui.problem_quantity": "{problem}: how many?",
    "ui.problem_confirm": "Report {problem}: {quantity}?",
    "ui.problem_yes": "Yes, report it",
    "ui.exception_confirm": "Report {exception}?",
    "ui.label_not_printed": "The label did not print",
    "ui.problem_where": "Where the unit goes",
    "ui.back": "Back",
    "ui.done": "Done",
    "ui.numpad_item": "{item}: expected {expected}",
    "ui.numpad_too_many": "More than {max} is not possible",
    "ui.numpad_zero": "Enter at least 1",
    "ui.numpad_delete": "Delete the last digit",
    "ui.manual_code": "Code from the label",
    "ui.manual_enter": "Enter code",
    "ui.watch_bins": "Watch bins {bins}",
    "ui.notice_reprint": "Reprint label",
    "ui.notice_skip": "Skip label",
    "ui.notice_supervisor": "Call a supervisor",
    "ui.outcome_short": "Short",
    "ui.outcome_complete": "Complete",
    "ui.bin_signal_error": "Refused: see above",
  },
  de: {
    "ui.connection_ok": "Verbunden",
    "ui.connection_lost_short": "Verbindung verloren",
    "ui.line_of": "Zeile {n} von {m}",
    "ui.lines": "Alle Zeilen",
    "ui.stale_screen": "Die Anzeige hat sich geändert: bitte neu hinsehen",
    "ui.card_take": "Aus Fach {slot} nehmen",
    "ui.card_put": "In Behälter {bin} legen",
    "ui.rack_face": "Regalfront, Fach {slot} markiert",
    "ui.alert_code": "Gescannt: {code}",
    "ui.alert_item": "Artikel: {item}",
    "ui.alert_instead": "Stattdessen:",
    "ui.problem": "Problem",
    "ui.problem_title": "Was ist das Problem?",
    "ui.problem_quantity": "{problem}: wie viele?",
    "ui.problem_confirm": "{problem} melden: {quantity}?",
    "ui.problem_yes": "Ja, melden",
    "ui.exception_confirm": "{exception} melden?",
    "ui.label_not_printed": "Das Etikett wurde nicht gedruckt",
    "ui.problem_where": "Wohin die Einheit kommt",
    "ui.back": "Zurück",
    "ui.done": "Fertig",
    "ui.numpad_item": "{item}: erwartet {expected}",
    "ui.numpad_too_many": "Mehr als {max} geht nicht",
    "ui.numpad_zero": "Mindestens 1 eingeben",
    "ui.numpad_delete": "Letzte Ziffer löschen",
    "ui.manual_code": "Code vom Etikett",
    "ui.manual_enter": "Code eingeben",
    "ui.watch_bins": "Auf Behälter {bins} achten",
    "ui.notice_reprint": "Etikett neu drucken",
    "ui.notice_skip": "Etikett überspringen",
    "ui.notice_supervisor": "Aufsicht rufen",
    "ui.outcome_short": "Unvollständig",
    "ui.outcome_complete": "Vollständig",
    "ui.bin_signal_error": "Abgelehnt: siehe oben",
  },
};

/** Sets the catalogue the page speaks (`/screen/assets/messages/<lang>`). */
export function useCatalogue(cat, lang = "en") {
  catalogue = cat;
  fallback = FALLBACK[lang] ?? FALLBACK.en;
}

/** A catalogue text with its `{placeholders}` filled (as src/station/screen/messages/messages.ts renders). */
export function t(key, params = {}) {
  const text = catalogue[key] ?? fallback[key] ?? FALLBACK.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A message of the screen state ({key, params}). */
export const msg = (m) => (m ? t(m.key, m.params ?? {}) : "");

export const $ = (id) => document.getElementById(id);

/** An element with attributes (`on*` as listeners) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(typeof c === "string" || typeof c === "number" ? String(c) : c);
  }
  return el;
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
}
