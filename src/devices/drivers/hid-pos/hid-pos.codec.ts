/**
 * Decoder for scanners in HID POS mode (usage page 0x8C, "Bar Code Scanner"): one input report per
 * <= 56 data bytes with a length, an AIM identifier and a "Decode Data Continued" bit, reassembled into
 * one message. hardware.md §1.3 and §3.2. All offsets come from the profile because vendors differ
 * (Honeywell/Access-IS vs Newland) [SRC 10, 11, 12, 24].
 */
import { concatBytes, latin1 } from "../../codecs/bytes.js";
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";

export interface HidPosLayout {
  /** Input report carrying scanned data (2 on Honeywell, Access-IS, Newland). */
  reportId: number;
  /**
   * hidapi/node-hid put the report id in byte 0 [SRC 8]; WebHID strips it [SRC 9]. The offsets below
   * are always written as hidapi sees the report; without the id byte they are read one lower.
   */
  reportIdInBuffer: boolean;
  lengthOffset: number;
  /** Start of the 3-char AIM id (`]` + symbology + modifier), or null when the device sends none (Newland). */
  aimOffset: number | null;
  /** If `]` is not at aimOffset but one byte later, read AIM and data one byte later (as the WebHID lib does) [SRC 9]. */
  aimProbe: boolean;
  dataOffset: number;
  maxDataPerReport: number;
  vendorCodeIdOffset: number | null;
  /** Byte holding the "continued" flag, or null when every report is a whole message. */
  continuedOffset: number | null;
  continuedMask: number;
  /** Removed from the end of a finished message when present (scanners often add CR) [SRC 9]. */
  stripSuffix: string;
  /** A message longer than this is flushed as truncated: guards against a continued bit that never clears. */
  maxMessageBytes: number;
}

export interface HidPosScan {
  type: "scan";
  data: Uint8Array;
  /** `data` one char per byte, suffix removed. */
  text: string;
  aim: string | null;
  codeId: string | null;
  /** How many reports made up this message. */
  reports: number;
  /** The message ended early: a report of another message arrived, it grew too long, or it was flushed. */
  truncated: boolean;
}

export type HidPosErrorReason = "short-report" | "bad-length";
export type HidPosEvent = HidPosScan | ParseErrorEvent<HidPosErrorReason>;

interface Pending {
  aim: string | null;
  codeId: string | null;
  parts: Uint8Array[];
  size: number;
}

export class HidPosDecoder {
  private pending: Pending | null = null;

  constructor(private readonly layout: HidPosLayout) {
    if (layout.maxDataPerReport < 1) throw new RangeError("HidPosDecoder: maxDataPerReport must be >= 1");
    if (layout.continuedMask < 1 || layout.continuedMask > 0xff) {
      throw new RangeError("HidPosDecoder: continuedMask must be 1..255");
    }
  }

  /**
   * Feed one input report. `reportId` is only needed when the buffer has no id byte (WebHID passes it
   * separately); reports with another id (e.g. trigger or feature reports) are ignored.
   */
  push(report: Uint8Array, reportId?: number): HidPosEvent[] {
    const L = this.layout;
    const shift = L.reportIdInBuffer ? 0 : -1;
    const id = L.reportIdInBuffer ? report[0] : reportId;
    if (id !== undefined && id !== L.reportId) return [];

    const ends = [
      L.lengthOffset + 1,
      L.aimOffset === null ? 0 : L.aimOffset + 3,
      L.vendorCodeIdOffset === null ? 0 : L.vendorCodeIdOffset + 1,
      L.continuedOffset === null ? 0 : L.continuedOffset + 1,
    ];
    const need = Math.max(...ends) + shift;
    if (report.length < need) return [parseError("short-report", report)];

    const len = report[L.lengthOffset + shift] ?? 0;
    let extra = 0;
    let aim: string | null = null;
    if (L.aimOffset !== null) {
      const a = L.aimOffset + shift;
      if (report[a] !== 0x5d && L.aimProbe && report[a + 1] === 0x5d) extra = 1;
      if (report[a + extra] === 0x5d) aim = latin1(report.subarray(a + extra, a + extra + 3));
    }
    const dataStart = L.dataOffset + shift + extra;
    if (len > L.maxDataPerReport || dataStart + len > report.length)
      return [parseError("bad-length", report)];

    const codeByte = L.vendorCodeIdOffset === null ? 0 : (report[L.vendorCodeIdOffset + shift] ?? 0);
    const codeId = codeByte === 0 ? null : String.fromCharCode(codeByte);
    const more =
      L.continuedOffset !== null && ((report[L.continuedOffset + shift] ?? 0) & L.continuedMask) !== 0;

    const out: HidPosEvent[] = [];
    // A report whose AIM differs from the message being collected starts a new message: the old one
    // lost its last report, so hand it on marked truncated rather than glue two scans together [DERIVED §3.2].
    if (this.pending !== null && this.pending.aim !== aim) out.push(...this.flush());
    const p = this.pending ?? { aim, codeId, parts: [], size: 0 };
    this.pending = p;
    p.parts.push(report.slice(dataStart, dataStart + len));
    p.size += len;
    p.codeId = codeId ?? p.codeId;

    if (!more) out.push(this.finish(false));
    else if (p.size > L.maxMessageBytes) out.push(this.finish(true));
    return out;
  }

  /** Hands on a half-received message as truncated (e.g. on disconnect or a receive timeout). */
  flush(): HidPosEvent[] {
    return this.pending === null ? [] : [this.finish(true)];
  }

  reset(): void {
    this.pending = null;
  }

  private finish(truncated: boolean): HidPosScan {
    const p = this.pending;
    this.pending = null;
    const data = concatBytes(p?.parts ?? []);
    let text = latin1(data);
    const { stripSuffix } = this.layout;
    if (!truncated && stripSuffix !== "" && text.endsWith(stripSuffix)) {
      text = text.slice(0, text.length - stripSuffix.length);
    }
    return {
      type: "scan",
      data,
      text,
      aim: p?.aim ?? null,
      codeId: p?.codeId ?? null,
      reports: p?.parts.length ?? 0,
      truncated,
    };
  }
}
