/**
 * Does every text fit its box (issue "A seat that runs a whole shift": no text overflows its control at
 * 1024×768 in the longest translation)? Measured in the page: every element shown that holds text (its
 * own, or in inline children), a button or an output, whose content is wider or taller than its box
 * (scrollWidth/scrollHeight over clientWidth/clientHeight: a clipped, ellipsised or spilled text alike);
 * and every control shown that a box which does not scroll (overflow hidden or clip) or the window cuts.
 * A panel that scrolls by design (a long list, the bins) is not a fault, nor what is scrolled out of it.
 * While a dialog is open only the dialog counts (the page behind it cannot be read or tapped).
 */
import type { Page } from "playwright-core";
import { CATALOGUES } from "../../../../src/station/screen/messages/messages.js";
import type { Lang } from "../../../../src/station/screen/state/types.js";

export interface Misfit {
  kind: "overflows" | "clipped";
  element: string;
  text: string;
  by: string;
}

/** Runs in the page (no DOM types in this project: the function is sent as source). */
const FIT = `(() => {
  const vw = innerWidth, vh = innerHeight;
  const dialog = [...document.querySelectorAll(".overlay")].find((o) => !o.hidden);
  const scope = dialog ?? document.body;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  const path = (el) => {
    const out = [];
    for (let e = el; e && e !== document.body && out.length < 3; e = e.parentElement) out.unshift(name(e));
    return out.join(" > ");
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const scrolls = (cs) => /(auto|scroll)/.test(cs.overflowX + cs.overflowY);
  const inline = (el) => getComputedStyle(el).display === "inline";
  const out = [];
  for (const el of [scope, ...scope.querySelectorAll("*")]) {
    if (!shown(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.display === "inline" || cs.display === "contents" || scrolls(cs)) continue;
    const own = [...el.childNodes].some((n) =>
      (n.nodeType === 3 && n.textContent.trim()) || (n.nodeType === 1 && inline(n) && n.textContent.trim()));
    if (!own && !el.matches("button, output")) continue;
    const dx = el.scrollWidth - el.clientWidth, dy = el.scrollHeight - el.clientHeight;
    if (dx > 1 || dy > 1)
      out.push({ kind: "overflows", element: path(el), text: el.textContent.trim().replace(/\\s+/g, " ").slice(0, 160), by: dx + "×" + dy + " px" });
  }
  for (const el of scope.querySelectorAll("button, input, output, [role=button]")) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    let cut = null, scrolled = false;
    for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (scrolls(cs)) { scrolled = true; break; }
      if (!/(hidden|clip)/.test(cs.overflowX + cs.overflowY)) continue;
      const b = p.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.top < b.top - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5) {
        cut = "cut by " + name(p);
        break;
      }
    }
    if (!cut && !scrolled && (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5))
      cut = "cut by the window";
    if (cut)
      out.push({ kind: "clipped", element: path(el), text: (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 160), by: cut });
  }
  return out;
})()`;

export async function misfits(page: Page): Promise<Misfit[]> {
  return (await page.evaluate(FIT)) as Misfit[];
}

// any run of spaces (a no-break space too: French puts one before ":") matches any other: an accessible
// name has its spaces normalised
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");

/** A catalogue text as a pattern: its `{placeholders}` stand for any text. */
export const pattern = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map(literal)
      .join(".+?")}$`,
    "s",
  );

/**
 * The catalogue keys whose text a shown text is (or, when none is, holds): the failure names the key to
 * shorten. A text composed of two (`Operator: ana`) names each part it holds.
 */
export function keysOf(lang: Lang, text: string): string[] {
  const cat = CATALOGUES[lang] as Record<string, string>;
  // a text that is only placeholders (`{text}`) would match anything: it names no key
  const worded = Object.keys(cat).filter((k) => /[^\s{}]/.test((cat[k] ?? "").replace(/\{\w+\}/g, "")));
  const exact = worded.filter((k) => pattern(cat[k] ?? "").test(text));
  if (exact.length) return exact.slice(0, 3);
  return worded
    .filter((k) => {
      const fixed = (cat[k] ?? "").split(/\{\w+\}/).filter((part) => part.trim().length >= 4);
      return fixed.length > 0 && fixed.every((part) => text.includes(part.trim()));
    })
    .slice(0, 3);
}

/** One line per misfit, naming the language, the state, the keys and the element. */
export function describeMisfits(lang: Lang, where: string, found: Misfit[]): string[] {
  return found.map(
    (m) =>
      `${lang} · ${where}: ${m.element} ${m.kind} (${m.by}), key ${keysOf(lang, m.text).join(" / ") || "?"}: "${m.text}"`,
  );
}
