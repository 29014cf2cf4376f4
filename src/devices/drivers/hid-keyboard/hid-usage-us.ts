/**
 * Keyboard/Keypad usage page 0x07 to characters for a US keyboard layout [SRC 20, 21], hardware.md §3.1
 * step 5. Only Tab, Space, 0-9 and A-Z are layout independent [SRC 47]; punctuation is right only if the
 * scanner's "keyboard country" is set to US, which is why the profile names the layout.
 */

/** [unshifted, shifted] per usage id; usages without a character (F-keys, CapsLock...) are absent. */
const US: ReadonlyMap<number, readonly [string, string]> = (() => {
  const m = new Map<number, readonly [string, string]>();
  // 0x04-0x1D letters
  for (let u = 0x04; u <= 0x1d; u++) {
    const c = String.fromCharCode(0x61 + (u - 0x04));
    m.set(u, [c, c.toUpperCase()]);
  }
  // 0x1E-0x26 '1'-'9', 0x27 '0', with the US shifted symbols
  const shiftedDigits = "!@#$%^&*(";
  for (let u = 0x1e; u <= 0x26; u++) {
    m.set(u, [String.fromCharCode(0x31 + (u - 0x1e)), shiftedDigits[u - 0x1e] ?? ""]);
  }
  m.set(0x27, ["0", ")"]);
  // Enter is the usual scan terminator: emitted as CR so a profile suffix of "\r" matches it.
  m.set(0x28, ["\r", "\r"]);
  m.set(0x29, ["\x1b", "\x1b"]);
  m.set(0x2a, ["\b", "\b"]);
  m.set(0x2b, ["\t", "\t"]);
  m.set(0x2c, [" ", " "]);
  const punct: Array<[number, string, string]> = [
    [0x2d, "-", "_"],
    [0x2e, "=", "+"],
    [0x2f, "[", "{"],
    [0x30, "]", "}"],
    [0x31, "\\", "|"],
    [0x32, "#", "~"], // non-US # key
    [0x33, ";", ":"],
    [0x34, "'", '"'],
    [0x35, "`", "~"],
    [0x36, ",", "<"],
    [0x37, ".", ">"],
    [0x38, "/", "?"],
  ];
  for (const [u, a, b] of punct) m.set(u, [a, b]);
  // Keypad: same character shifted or not (NumLock assumed on, as scanners send it).
  const keypad: Array<[number, string]> = [
    [0x54, "/"],
    [0x55, "*"],
    [0x56, "-"],
    [0x57, "+"],
    [0x58, "\r"],
    [0x63, "."],
  ];
  for (const [u, c] of keypad) m.set(u, [c, c]);
  for (let u = 0x59; u <= 0x61; u++) {
    const c = String.fromCharCode(0x31 + (u - 0x59));
    m.set(u, [c, c]);
  }
  m.set(0x62, ["0", "0"]);
  return m;
})();

/** Character for `usage` on a US layout, or undefined for keys that type nothing. */
export function usCharFor(usage: number, shift: boolean): string | undefined {
  const pair = US.get(usage);
  return pair === undefined ? undefined : pair[shift ? 1 : 0];
}

/** Keypad digit for usages 0x59-0x62 (KP1..KP9, KP0), used by Alt+keypad entry [SRC 22]. */
export function keypadDigit(usage: number): string | undefined {
  if (usage >= 0x59 && usage <= 0x61) return String.fromCharCode(0x31 + (usage - 0x59));
  if (usage === 0x62) return "0";
  return undefined;
}

/** Usages 0x01-0x03 (ErrorRollOver, POSTFail, ErrorUndefined) are error codes, not keys [SRC 20]. */
export function isErrorUsage(usage: number): boolean {
  return usage >= 0x01 && usage <= 0x03;
}
