// @ts-check
// Small DOM helpers and the message catalogue of the operator screen (no framework, no build step).
/** @import { MessageKey } from "../messages/en.js" */
/** @import { Msg } from "../state/types.js" */

/** @typedef {Record<string, string | number>} Params */
/**
 * What an element holds: nodes and texts; a missing or boolean one is left out (`cond && el`).
 * @typedef {Node | string | number | boolean | null | undefined} Child
 */

/** @type {Readonly<Record<string, string>>} */
let catalogue = {};

/**
 * Sets the catalogue the page speaks (`/screen/assets/messages/<lang>`).
 * @param {Readonly<Record<string, string>>} cat
 */
export function useCatalogue(cat) {
  catalogue = cat;
}

/**
 * A catalogue text with its `{placeholders}` filled (as src/station/screen/messages/messages.ts renders).
 * @param {string} key
 * @param {Params} params
 */
function fillIn(key, params) {
  const text = catalogue[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * A text of the page by its key, which the catalogue must have (en.ts `MessageKey`: a key the catalogue
 * does not have fails the type check).
 * @param {MessageKey} key
 * @param {Params} [params]
 */
export const t = (key, params = {}) => fillIn(key, params);

/**
 * A message of the screen state ({key, params}): its key is the agent's (state/types.ts `Msg`).
 * @param {Msg | null | undefined} m
 */
export const msg = (m) => (m ? fillIn(m.key, m.params ?? {}) : "");

/**
 * An element of the page (index.html has them all: a missing one is a fault of the page).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/**
 * An element of the page of a given kind (an input, an output).
 * @template {HTMLElement} E
 * @param {string} id
 * @param {{ new (): E }} kind
 * @returns {E}
 */
export function $as(id, kind) {
  const el = $(id);
  if (!(el instanceof kind)) throw new Error(`#${id} is not a ${kind.name}`);
  return el;
}

/**
 * The children to insert: one level of arrays flattened, falsy ones left out, numbers as text.
 * @param {Array<Child | Child[]>} children
 * @returns {Array<Node | string>}
 */
function nodes(children) {
  /** @type {Array<Node | string>} */
  const out = [];
  for (const c of children.flat()) {
    if (c === undefined || c === null || typeof c === "boolean") continue;
    out.push(typeof c === "number" ? String(c) : c);
  }
  return out;
}

/**
 * An element with attributes (`on*` as listeners) and children (strings become text).
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {Array<Child | Child[]>} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  el.append(...nodes(children));
  return el;
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {Array<Child | Child[]>} children
 */
export function fill(el, ...children) {
  el.replaceChildren(...nodes(children));
}
