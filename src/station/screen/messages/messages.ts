/** The screen's message catalogues by language (docs/station.md#operator-screen). */

import { LANGUAGES, type Lang } from "../state/types.js";
import { cs } from "./cs.js";
import { de } from "./de.js";
import { en, type MessageKey } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { nl } from "./nl.js";
import { pl } from "./pl.js";
import { tr } from "./tr.js";

export const CATALOGUES: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = {
  en,
  de,
  pl,
  cs,
  nl,
  fr,
  es,
  tr,
};

export const isLang = (x: unknown): x is Lang => LANGUAGES.some((l) => l === x);

/** The names after `prefix` of the catalogue's keys that start with it. */
const keysUnder = (prefix: string): ReadonlySet<string> =>
  new Set(
    Object.keys(en)
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length)),
  );

/** Reasons with a `refusal.*` message: the seat machine's reasons and the operations' error codes. */
export const REFUSAL_KEYS = keysUnder("refusal.");

/** Reasons with an `instead.*` message, what to do instead (every other: `instead.other`). */
export const INSTEAD_KEYS = keysUnder("instead.");

/** `{name}` placeholders filled from `params` (the page does the same in screen.js). */
export function render(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const text = (CATALOGUES[lang] as Record<string, string>)[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}
