/**
 * Text from outside (a user name a failed login sent, an address, an id) as a terminal or a log may
 * show it: stored as sent, but printed with every character that would act on the terminal escaped.
 * C0 controls (ESC starts a sequence that can clear the screen or set the window title; CR and LF forge
 * whole lines), DEL, C1 controls (some terminals take 0x9B as ESC [) and the bidi overrides (which
 * reorder what follows them) become `\xNN` or `\u{NNNN}`; a backslash is doubled so that an escape in
 * the output always means one in the text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === "\\") return "\\\\";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

/** The characters a JSON text keeps raw that a terminal would act on (DEL, C1, bidi), as `\uNNNN`. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A JSON text with those characters escaped: the same JSON value, safe to print. */
export function printableJson(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
