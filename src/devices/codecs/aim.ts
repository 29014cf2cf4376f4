/**
 * AIM symbology identifiers: `]` + symbology char + modifier char [SRC 25, 26], hardware.md §1.4.
 * Scanners send one in every HID POS report and, if configured, in front of wedge/serial data.
 * The modifier also says whether FNC1 was in first position, i.e. whether the data is a GS1 element
 * string (FNC1 itself is not transmitted) [DERIVED from SRC 26].
 */

export interface AimId {
  /** The three characters, e.g. "]C1". */
  id: string;
  code: string;
  modifier: string;
  /** Stable lower-case name, e.g. "gs1-128", "ean13", "data-matrix". */
  symbology: string;
  /** FNC1 in first position: the data is a GS1 element string. */
  gs1: boolean;
  /** Where the symbol had FNC1, when the modifier says so. */
  fnc1: "first" | "second" | null;
}

type Rule = (modifier: string, dataLength: number | undefined) => Pick<AimId, "symbology" | "gs1" | "fnc1">;

const plain =
  (symbology: string): Rule =>
  () => ({ symbology, gs1: false, fnc1: null });

const RULES: Readonly<Record<string, Rule>> = {
  C: (m) => (m === "1" ? gs1("gs1-128") : { symbology: "code128", gs1: false, fnc1: null }),
  // ]E0 covers EAN-13, UPC-A and UPC-E: only the data length tells them apart [SRC 26].
  E: (m, len) => {
    if (m === "4") return { symbology: "ean8", gs1: false, fnc1: null };
    if (m === "1" || m === "2") return { symbology: "ean-addon", gs1: false, fnc1: null };
    if (m === "3") return { symbology: "ean-with-addon", gs1: false, fnc1: null };
    const byLength: Record<number, string> = { 13: "ean13", 12: "upca", 8: "upce" };
    return { symbology: (len !== undefined ? byLength[len] : undefined) ?? "ean13", gs1: false, fnc1: null };
  },
  e: () => gs1("gs1-databar"),
  d: (m) => fnc1Variant("data-matrix", m, ["2", "5"], ["3", "6"]),
  Q: (m) => fnc1Variant("qr-code", m, ["3", "4"], ["5", "6"]),
  I: plain("itf"),
  A: plain("code39"),
  F: plain("codabar"),
  G: plain("code93"),
  L: plain("pdf417"),
  z: plain("aztec"),
  X: plain("other"),
  // ]Z: no barcode data, e.g. the answer to a command tunnelled over HID POS [SRC 11].
  Z: plain("no-barcode"),
};

function gs1(symbology: string): Pick<AimId, "symbology" | "gs1" | "fnc1"> {
  return { symbology, gs1: true, fnc1: "first" };
}

function fnc1Variant(
  symbology: string,
  modifier: string,
  first: readonly string[],
  second: readonly string[],
): Pick<AimId, "symbology" | "gs1" | "fnc1"> {
  if (first.includes(modifier)) return gs1(symbology);
  return { symbology, gs1: false, fnc1: second.includes(modifier) ? "second" : null };
}

/**
 * Reads a 3-char AIM id. `dataLength` (length of the data after it) separates EAN-13/UPC-A/UPC-E
 * under ]E0. Returns null when `id` is not an AIM id at all.
 */
export function parseAim(id: string, dataLength?: number): AimId | null {
  if (id.length !== 3 || id[0] !== "]") return null;
  const code = id[1] ?? "";
  const modifier = id[2] ?? "";
  if (!/^[\x21-\x7e]$/.test(code) || !/^[\x21-\x7e]$/.test(modifier)) return null;
  const rule = RULES[code];
  const known = rule ? rule(modifier, dataLength) : { symbology: "unknown", gs1: false, fnc1: null };
  return { id, code, modifier, ...known };
}

/** Splits a leading AIM id off scanner text (wedge or serial mode with the AIM prefix switched on). */
export function splitAim(text: string): { aim: AimId | null; data: string } {
  const data = text.slice(3);
  const aim = parseAim(text.slice(0, 3), data.length);
  return aim === null ? { aim: null, data: text } : { aim, data };
}
