/**
 * Turns the raw text of one scan (from any scanner decoder) into value + symbology + GS1 elements,
 * hardware.md §3.6 step 1 and §5 ("Emit {value, aim?, symbology?, gs1?}").
 */
import { type AimId, parseAim, splitAim } from "./aim.js";
import { GS, type Gs1Result, parseGs1 } from "./gs1.js";

export interface ScanInterpretOptions {
  /** AIM id delivered beside the data (HID POS report bytes 2-4); wins over `aimTransmitted`. */
  aim?: string | null;
  /** The scanner puts the AIM id in front of the data (wedge/serial with AIM prefix on). */
  aimTransmitted: boolean;
  /**
   * What this scanner sends for FNC1-as-separator. Keyboard emulation often cannot send 0x1D, so the
   * scanner is set to send another character [SRC 27, 28, 28b]; it is mapped back to GS here.
   */
  groupSeparator: string;
}

export interface ScanInterpretation {
  /** The data without AIM id, separators normalised to GS. */
  value: string;
  aim: AimId | null;
  /** Present when the scan is a GS1 element string (FNC1-first AIM, or a GS in the data). */
  gs1: Gs1Result | null;
}

export function interpretScan(text: string, opts: ScanInterpretOptions): ScanInterpretation {
  let aim: AimId | null = null;
  let data = text;
  if (opts.aim !== undefined && opts.aim !== null) {
    aim = parseAim(opts.aim, text.length);
  } else if (opts.aimTransmitted) {
    ({ aim, data } = splitAim(text));
  }
  const sep = opts.groupSeparator;
  const value = sep !== "" && sep !== GS ? data.split(sep).join(GS) : data;
  const isGs1 = aim?.gs1 === true || value.includes(GS);
  return { value, aim, gs1: isGs1 ? parseGs1(value) : null };
}
