/**
 * Setting the label's text into its areas (docs/limits.md#shipping-labels): wrapping, the address set
 * smaller step by step down to a legible minimum, lines cut with an ellipsis. Pure: the font's widths
 * come in as `measure`.
 */

/** Width in points of `text` set at `size` points. */
export type Measure = (text: string, size: number) => number;

/**
 * The smallest address size: DejaVu Sans's stems are 0.09 em wide, 2 printer dots at 8 pt and 203 dpi
 * (8/72 × 203 × 0.09 = 2.03); at 7 pt they fall to 1.8 dots and thin strokes break up on a thermal head.
 */
export const MIN_ADDRESS_PT = 8;
export const MAX_ADDRESS_PT = 14;
/** Line spacing as a multiple of the size. */
export const LEADING = 1.2;

/** Whitespace other than line breaks, and control characters, are laid out as one space. */
function clean(paragraph: string): string {
  return paragraph.replace(/[\p{Cc}\p{White_Space}]+/gu, " ").trim();
}

/** A word wider than the line is broken between characters (a long URL, a house name without spaces). */
function breakWord(measure: Measure, word: string, size: number, width: number): string[] {
  const parts: string[] = [];
  let part = "";
  for (const ch of word) {
    if (part && measure(part + ch, size) > width) {
      parts.push(part);
      part = ch;
    } else part += ch;
  }
  if (part) parts.push(part);
  return parts;
}

/** The text's lines at `size` within `width`: its own line breaks kept, words wrapped, none dropped. */
export function wrapText(measure: Measure, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const para of text.split(/\r\n|\n|\r/).map(clean)) {
    let line = "";
    for (const word of para.split(" ").filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (measure(next, size) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      const pieces = breakWord(measure, word, size, width);
      line = pieces.pop() ?? "";
      lines.push(...pieces);
    }
    lines.push(line);
  }
  // blank lines at the ends carry nothing; inner ones are the sender's
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  while (lines.length > 1 && lines[0] === "") lines.shift();
  return lines;
}

export type AddressFit =
  | { ok: true; size: number; lines: string[] }
  | { ok: false; size: number; lines: string[]; reason: string };

/**
 * The largest size from MAX_ADDRESS_PT down to MIN_ADDRESS_PT, one point at a time, at which every
 * line of the address fits `height`; otherwise why not, in words, and nothing is printed.
 */
export function fitAddress(measure: Measure, text: string, width: number, height: number): AddressFit {
  let lines: string[] = [];
  for (let size = MAX_ADDRESS_PT; size >= MIN_ADDRESS_PT; size--) {
    lines = wrapText(measure, text, size, width);
    if (lines.length * size * LEADING <= height) return { ok: true, size, lines };
  }
  const room = Math.floor(height / (MIN_ADDRESS_PT * LEADING));
  return {
    ok: false,
    size: MIN_ADDRESS_PT,
    lines,
    reason: `the shipping address does not fit the label: ${lines.length} lines at ${MIN_ADDRESS_PT} pt, room for ${room}`,
  };
}

/** The text on one line within `width`, cut with an ellipsis when longer. */
export function ellipsize(measure: Measure, text: string, size: number, width: number): string {
  const line = clean(text);
  if (measure(line, size) <= width) return line;
  const chars = [...line];
  let lo = 0;
  let hi = chars.length;
  // the longest prefix that fits with the ellipsis
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${chars.slice(0, mid).join("").trimEnd()}…`, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join("").trimEnd()}…`;
}
