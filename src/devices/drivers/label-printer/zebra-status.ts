/**
 * The Zebra host status codec (docs/hardware.md#zebra-host-status): `~HS` asks, the printer answers
 * three strings `<STX>…<ETX><CR><LF>`; this cuts them from a byte stream arriving in any chunks, reads
 * the fields the agent uses, and says what stops a label. Pure: no socket, no clock.
 */

export const STATUS_REQUEST = "~HS";
/** Cancel all: drops every format in the printer's buffer (docs/decisions.md#zpl-labels). */
export const CANCEL_ALL = "~JA";

const STX = 0x02;
const ETX = 0x03;
/** A status string is ~40 bytes; anything longer without an ETX is garbage and dropped. */
const MAX_STRING = 256;

export interface ZebraStatus {
  /** String 1, field b. */
  paperOut: boolean;
  /** String 1, field c. */
  paused: boolean;
  /** String 1, field dddd: the label length in dots. */
  labelLengthDots: number;
  /** String 1, field eee: formats received and not printed yet. */
  formatsInBuffer: number;
  /** String 1, field f. */
  bufferFull: boolean;
  /** String 1, field h: a format has begun (`^XA`) and not ended (`^XZ`). */
  partialFormat: boolean;
  /** String 1, field j. */
  corruptRam: boolean;
  /** String 1, field k: the head is too cold. */
  underTemperature: boolean;
  /** String 1, field l: the head is too hot. */
  overTemperature: boolean;
  /** String 2, field o. */
  headOpen: boolean;
  /** String 2, field p. */
  ribbonOut: boolean;
  /** String 2, field uuuuuuuu: labels of the current batch still to print. */
  labelsRemaining: number;
}

const flag = (s: string | undefined): boolean => s === "1";

function numbers(fields: string[]): boolean {
  return fields.every((f) => /^\d+$/.test(f.trim()));
}

/** Reads the three strings' fields; null when they are not the documented layout. */
export function parseHostStatus(s1: string, s2: string, s3: string): ZebraStatus | null {
  const a = s1.split(",");
  const b = s2.split(",");
  const c = s3.split(",");
  if (a.length !== 12 || b.length !== 11 || c.length !== 2) return null;
  if (!numbers(a) || !numbers(b) || !numbers(c)) return null;
  const n = (f: string | undefined) => Number((f ?? "0").trim());
  return {
    paperOut: flag(a[1]),
    paused: flag(a[2]),
    labelLengthDots: n(a[3]),
    formatsInBuffer: n(a[4]),
    bufferFull: flag(a[5]),
    partialFormat: flag(a[7]),
    corruptRam: flag(a[9]),
    underTemperature: flag(a[10]),
    overTemperature: flag(a[11]),
    headOpen: flag(b[2]),
    ribbonOut: flag(b[3]),
    labelsRemaining: n(b[8]),
  };
}

/**
 * A stream decoder: `push` takes the bytes as they come and returns every complete status. Bytes
 * outside `<STX>…<ETX>` are skipped; a string that is not the next one expected starts over, so a
 * garbled or partial answer is dropped and the next whole one is read.
 */
export function createHostStatusDecoder() {
  let current: number[] | null = null;
  let strings: string[] = [];
  const fieldCount = [12, 11, 2];
  return {
    push(chunk: Uint8Array): ZebraStatus[] {
      const out: ZebraStatus[] = [];
      for (const byte of chunk) {
        if (byte === STX) {
          current = [];
          continue;
        }
        if (current === null) continue;
        if (byte !== ETX) {
          current.push(byte);
          if (current.length > MAX_STRING) {
            current = null;
            strings = [];
          }
          continue;
        }
        const text = Buffer.from(current).toString("latin1");
        current = null;
        const fields = text.split(",").length;
        // string 1 always begins a status; a string out of its place drops what was gathered
        if (fields === fieldCount[0]) strings = [text];
        else if (strings.length > 0 && fields === fieldCount[strings.length]) strings.push(text);
        else strings = [];
        if (strings.length === 3) {
          const status = parseHostStatus(strings[0] ?? "", strings[1] ?? "", strings[2] ?? "");
          if (status) out.push(status);
          strings = [];
        }
      }
      return out;
    },
  };
}

/** The faults that stop a label, in the order they are named, with their words and the screen's cause. */
const FAULTS: ReadonlyArray<{ on: (s: ZebraStatus) => boolean; words: string; cause: ZebraCause }> = [
  { on: (s) => s.headOpen, words: "the printer's head is open", cause: "head_open" },
  { on: (s) => s.paperOut, words: "the printer is out of paper", cause: "paper_out" },
  { on: (s) => s.ribbonOut, words: "the printer is out of ribbon", cause: "ribbon_out" },
  { on: (s) => s.overTemperature, words: "the printer's head is too hot", cause: "fault" },
  { on: (s) => s.corruptRam, words: "the printer's memory is corrupt", cause: "fault" },
  { on: (s) => s.bufferFull, words: "the printer's receive buffer is full", cause: "fault" },
  { on: (s) => s.paused, words: "the printer is paused", cause: "paused" },
];

export type ZebraCause = "head_open" | "paper_out" | "ribbon_out" | "paused" | "fault";

/** What stops the printer from printing, in words for the screen and the log; null when nothing does. */
export function zebraFault(s: ZebraStatus): string | null {
  return FAULTS.find((f) => f.on(s))?.words ?? null;
}

/** The same fault as a cause the screen names in every language; null when nothing stops it. */
export function zebraFaultCause(s: ZebraStatus): ZebraCause | null {
  return FAULTS.find((f) => f.on(s))?.cause ?? null;
}

/** Whether the printer has printed everything it was sent: no format waiting, none half received, no batch left. */
export function zebraIdle(s: ZebraStatus): boolean {
  return s.formatsInBuffer === 0 && !s.partialFormat && s.labelsRemaining === 0;
}

/** What one answer after a label says of it: done, a fault in words, or not yet (null). */
export function jobVerdict(status: ZebraStatus): "done" | string | null {
  return zebraFault(status) ?? (zebraIdle(status) ? "done" : null);
}

/** A status as the printer sends it (the three strings), for the fake printer of the tests and for docs. */
export function encodeHostStatus(s: ZebraStatus): string {
  const b = (v: boolean) => (v ? "1" : "0");
  const pad = (v: number, w: number) => String(v).padStart(w, "0");
  const s1 = [
    "030",
    b(s.paperOut),
    b(s.paused),
    pad(s.labelLengthDots, 4),
    pad(s.formatsInBuffer, 3),
    b(s.bufferFull),
    "0",
    b(s.partialFormat),
    "000",
    b(s.corruptRam),
    b(s.underTemperature),
    b(s.overTemperature),
  ].join(",");
  const s2 = [
    "001",
    "0",
    b(s.headOpen),
    b(s.ribbonOut),
    "0",
    "2",
    "6",
    "0",
    pad(s.labelsRemaining, 8),
    "1",
    "000",
  ].join(",");
  const s3 = "1234,0";
  return [s1, s2, s3].map((x) => `\u0002${x}\u0003\r\n`).join("");
}
