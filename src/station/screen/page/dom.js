// Small DOM helpers and the message catalogue of the operator screen (no framework, no build step).

let catalogue = {};

/** Sets the catalogue the page speaks (`/screen/assets/messages/<lang>`). */
export function useCatalogue(cat) {
  catalogue = cat;
}

/** A catalogue text with its `{placeholders}` filled (as src/station/screen/messages/messages.ts renders). */
export function t(key, params = {}) {
  const text = catalogue[key] ?? key;
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
