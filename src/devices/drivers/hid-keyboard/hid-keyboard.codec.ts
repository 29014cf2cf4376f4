/**
 * Decoder for scanners in USB HID keyboard ("wedge") mode: 8-byte boot-keyboard reports in, scanned
 * strings out. hardware.md §1.2 and §3.1. Pure: the caller passes the time of each report, and calls
 * `tick(now)` from its own timer when an idle terminator is configured.
 */
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";
import { isErrorUsage, keypadDigit, usCharFor } from "./hid-usage-us.js";

export interface HidKeyboardOptions {
  /** null: plain 8-byte boot reports [SRC 16]; a number: byte 0 is this report id [SRC 18]. */
  reportId: number | null;
  layout: "us";
  /** Scanner types each character as Alt + three keypad digits [SRC 22]. */
  altNumpad: boolean;
  /** Alt codes above 127: code page unknown [ASSUMPTION §3.1 step 6], so the profile decides. */
  altNumpadAbove127: "latin1" | "reject";
  /** "ctrl+0xNN" (usage id, lower-case hex) to text, e.g. Ctrl+] to GS; per scanner [ASSUMPTION §1.4]. */
  ctrlMap: Readonly<Record<string, string>>;
  /** Stripped from the start of a message when present. */
  prefix: string;
  /** Ends a message (e.g. "\r" from the Enter key); "" = idle terminator only. */
  suffix: string;
  /** Ends a message after this long without reports; null = suffix only [ASSUMPTION §3.1 step 8]. */
  idleTerminatorMs: number | null;
}

export interface KeyboardScan {
  type: "scan";
  text: string;
  terminatedBy: "suffix" | "idle";
}

export type HidKeyboardErrorReason = "wrong-report-id" | "short-report" | "alt-code-out-of-range";
export type HidKeyboardEvent = KeyboardScan | ParseErrorEvent<HidKeyboardErrorReason>;

const MOD_CTRL = 0x11; // LeftCtrl | RightCtrl [SRC 16]
const MOD_SHIFT = 0x22; // LeftShift | RightShift
const MOD_ALT = 0x44; // LeftAlt | RightAlt

/**
 * Usages pressed in `current` that were not down in `previous`, in slot order. Counted as a multiset
 * because a real Alt+keypad scanner repeats a usage within one report (`04 00 62 60 62` = Alt+080)
 * [SRC 22], which a plain set would collapse.
 */
export function newlyPressed(previous: readonly number[], current: readonly number[]): number[] {
  const held = new Map<number, number>();
  for (const u of previous) held.set(u, (held.get(u) ?? 0) + 1);
  const out: number[] = [];
  for (const u of current) {
    const n = held.get(u) ?? 0;
    if (n > 0) held.set(u, n - 1);
    else out.push(u);
  }
  return out;
}

export class HidKeyboardDecoder {
  private prevKeys: number[] = [];
  private altHeld = false;
  private altDigits = "";
  private text = "";
  private lastReportAt: number | null = null;

  constructor(private readonly opts: HidKeyboardOptions) {
    if (opts.idleTerminatorMs !== null && !(opts.idleTerminatorMs > 0)) {
      throw new RangeError("HidKeyboardDecoder: idleTerminatorMs must be > 0 or null");
    }
    if (opts.suffix === "" && opts.idleTerminatorMs === null) {
      throw new RangeError("HidKeyboardDecoder: needs a suffix or an idleTerminatorMs to end a message");
    }
  }

  /** Feed one input report as read from hidraw/node-hid, with its arrival time in ms. */
  push(report: Uint8Array, nowMs: number): HidKeyboardEvent[] {
    const out = this.tick(nowMs);
    let r = report;
    if (this.opts.reportId !== null) {
      if (r[0] !== this.opts.reportId) {
        out.push(parseError("wrong-report-id", report));
        return out;
      }
      r = r.subarray(1);
    }
    if (r.length < 8) {
      out.push(parseError("short-report", report));
      return out;
    }
    const slots = Array.from(r.subarray(2, 8)).filter((u) => u !== 0);
    const keys = slots.filter((u) => !isErrorUsage(u));
    // Rollover/error reports say "too many keys", not which: ignore them and keep the previous state
    // so the next real report is still edge-detected against what was down before [SRC 20, 21].
    if (slots.length > 0 && keys.length === 0) return out;
    this.lastReportAt = nowMs;

    const mod = r[0] ?? 0;
    const alt = (mod & MOD_ALT) !== 0;
    if (this.altHeld && !alt) this.finishAltCode(report, out);
    this.altHeld = alt;

    const shift = (mod & MOD_SHIFT) !== 0;
    const ctrl = (mod & MOD_CTRL) !== 0;
    for (const usage of newlyPressed(this.prevKeys, keys)) {
      if (alt) {
        const digit = this.opts.altNumpad ? keypadDigit(usage) : undefined;
        if (digit !== undefined) this.altDigits += digit;
        continue; // Alt+key types nothing by itself
      }
      if (ctrl) {
        const mapped = this.opts.ctrlMap[`ctrl+0x${usage.toString(16).padStart(2, "0")}`];
        if (mapped !== undefined) this.append(mapped, out);
        continue;
      }
      const ch = usCharFor(usage, shift);
      if (ch !== undefined) this.append(ch, out);
    }
    this.prevKeys = keys;
    return out;
  }

  /** Ends a pending message if the idle time has passed. Call from a timer; safe to call any time. */
  tick(nowMs: number): HidKeyboardEvent[] {
    const due = this.deadline();
    if (due === null || nowMs < due) return [];
    const out: HidKeyboardEvent[] = [];
    this.emit("idle", out);
    return out;
  }

  /** When `tick` would end the pending message, or null if nothing is pending or no idle terminator. */
  deadline(): number | null {
    if (this.opts.idleTerminatorMs === null || this.lastReportAt === null) return null;
    if (this.text === "" && this.altDigits === "") return null;
    return this.lastReportAt + this.opts.idleTerminatorMs;
  }

  reset(): void {
    this.prevKeys = [];
    this.altHeld = false;
    this.altDigits = "";
    this.text = "";
    this.lastReportAt = null;
  }

  private finishAltCode(report: Uint8Array, out: HidKeyboardEvent[]): void {
    if (this.altDigits === "") return;
    const code = Number.parseInt(this.altDigits, 10);
    this.altDigits = "";
    if (code < 128 || (code <= 0xff && this.opts.altNumpadAbove127 === "latin1")) {
      this.append(String.fromCharCode(code), out);
    } else {
      out.push(parseError("alt-code-out-of-range", report));
    }
  }

  private append(chars: string, out: HidKeyboardEvent[]): void {
    this.text += chars;
    const { suffix } = this.opts;
    if (suffix !== "" && this.text.endsWith(suffix)) {
      this.text = this.text.slice(0, this.text.length - suffix.length);
      this.emit("suffix", out);
    }
  }

  private emit(terminatedBy: KeyboardScan["terminatedBy"], out: HidKeyboardEvent[]): void {
    let text = this.text;
    this.text = "";
    this.altDigits = "";
    const { prefix } = this.opts;
    if (prefix !== "" && text.startsWith(prefix)) text = text.slice(prefix.length);
    // A bare terminator (e.g. a stray Enter) is not a scan.
    if (text !== "") out.push({ type: "scan", text, terminatedBy });
  }
}
