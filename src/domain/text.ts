/**
 * How long a text is: in characters, that is Unicode code points, as the interface writes its limits
 * ("at most 255 characters", docs/interface.md#limits). A character outside the Basic Multilingual
 * Plane (an emoji, a rare CJK ideograph) counts one, not the two UTF-16 units of JavaScript's `length`.
 * The one rule for every length the agent checks: zod's string `min`, `max` and `length` count the same
 * (test/unit/domain/text.test.ts holds the two together), and every check written by hand uses these.
 */

const HIGH = (u: number) => u >= 0xd800 && u <= 0xdbff;
const LOW = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/** The characters of a text; a lone surrogate counts one, as string iteration counts it. */
export function characters(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    if (HIGH(text.charCodeAt(i)) && LOW(text.charCodeAt(i + 1))) i++;
  }
  return n;
}

/** Whether a text has more than `max` characters (counted only when its UTF-16 units are more). */
export const longerThan = (text: string, max: number): boolean => text.length > max && characters(text) > max;

/** Whether a text has fewer than `min` characters. */
export const shorterThan = (text: string, min: number): boolean =>
  text.length < min || (text.length < min * 2 && characters(text) < min);

/** A text cut to at most `max` characters, `…` marking the cut, never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (!longerThan(text, max)) return text;
  return `${Array.from(text)
    .slice(0, max - 1)
    .join("")}…`;
}
