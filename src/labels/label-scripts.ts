/**
 * Which text the label can print (docs/decisions.md#label-scripts): every character the embedded font
 * draws, left to right, one glyph per character. Scripts written right to left or with joined letters
 * (Arabic, Hebrew, …) would need shaping and bidirectional ordering that pdf-lib does not do, and the
 * font has no CJK: text in them is refused in words, never printed as '?' or as loose glyphs.
 */
import type { LabelData } from "../domain/label-data.js";

/** Scripts refused even where the font has glyphs: right to left, letters joined or reordered. */
const NEEDS_SHAPING: Array<[string, RegExp]> = [
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Syriac", /\p{Script=Syriac}/u],
  ["Thaana", /\p{Script=Thaana}/u],
  ["N'Ko", /\p{Script=Nko}/u],
];

/** Names of scripts the font lacks, for the words of a refusal. */
const NAMED: Array<[string, RegExp]> = [
  ["Greek", /\p{Script=Greek}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Japanese", /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["Chinese", /\p{Script=Han}/u],
  ["Korean", /\p{Script=Hangul}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Bengali", /\p{Script=Bengali}/u],
  ["Tamil", /\p{Script=Tamil}/u],
  ["Ethiopic", /\p{Script=Ethiopic}/u],
];

/** Whitespace and control characters are laid out as space or line breaks, not drawn. */
const LAYOUT = /[\p{White_Space}\p{Cc}]/u;

function scriptOf(ch: string, field: string): string {
  for (const [name, re] of NEEDS_SHAPING) if (re.test(ch)) return name;
  if (/\p{M}/u.test(ch)) return "combining";
  for (const [name, re] of NAMED)
    if (re.test(ch))
      return name === "Chinese" && /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(field)
        ? "Japanese"
        : name;
  return "other";
}

/** Text as the label prints it: composed (NFC), so a letter and its accent are one glyph when one exists. */
export function labelText(text: string): string {
  return text.normalize("NFC");
}

/**
 * Why `field` (named for the operator, e.g. "the shipping address") cannot be printed, in words;
 * undefined when every character is drawn. `has` tells whether the font has a glyph for a code point.
 */
export function scriptRefusal(
  field: string,
  text: string,
  has: (codePoint: number) => boolean,
): string | undefined {
  const composed = labelText(text);
  const bad = new Map<string, Set<string>>();
  for (const ch of composed) {
    if (LAYOUT.test(ch)) continue;
    const shaping = NEEDS_SHAPING.some(([, re]) => re.test(ch)) || /\p{M}/u.test(ch);
    if (!shaping && has(ch.codePointAt(0) as number)) continue;
    const script = scriptOf(ch, composed);
    const seen = bad.get(script) ?? new Set<string>();
    seen.add(ch);
    bad.set(script, seen);
  }
  const [first] = bad;
  if (!first) return undefined;
  const [script, chars] = first;
  const shown = [...chars].slice(0, 5).map((ch) => (/\p{M}/u.test(ch) ? `U+${hex(ch)}` : ch));
  const list = `(${shown.join(", ")}${chars.size > 5 ? ", …" : ""})`;
  if (script === "combining")
    return `${field} holds combining marks ${list} that no single character composes, which the label cannot print`;
  if (script === "other")
    return `${field} holds characters the label's font cannot draw ${list}, which the label cannot print`;
  const why = NEEDS_SHAPING.some(([name]) => name === script)
    ? " (its letters need joining and right-to-left ordering)"
    : "";
  return `${field} holds ${script} characters ${list}, which the label cannot print${why}`;
}

function hex(ch: string): string {
  return (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
}

/** The text of the label by field, as the operator is told which one cannot be printed. */
function fields(data: LabelData): Array<[string, string | undefined]> {
  return [
    ["the shipping address", data.shippingAddress],
    ["the order number", data.orderNumber ?? data.externalServiceRequestId],
    ["the box id", data.packingBoxId],
    ["the box type", data.packingBoxType],
    ["the station", data.station],
    ...data.lines.flatMap(
      (l, i): Array<[string, string | undefined]> => [
        [`item line ${i + 1}'s description`, l.description],
        [`item line ${i + 1}'s SKU`, l.product],
      ],
    ),
  ];
}

/** Throws, in words, when a field holds text the label cannot print (never a '?'). */
export function checkLabelScripts(data: LabelData, has: (cp: number) => boolean): void {
  for (const [field, value] of fields(data)) {
    const refusal = value === undefined ? undefined : scriptRefusal(field, value, has);
    if (refusal) throw new Error(refusal);
  }
}
