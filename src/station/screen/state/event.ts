/**
 * The screen's "last event" (pure): an input the engine took (a scan, a key-in, a button, a beam) or a
 * tap that ran a station operation, with its result in words: a refusal names its reason (the seat
 * machine's, or the refusing operation's error code), and a tone tells good from refused from complete
 * (the page plays it with Web Audio). Inputs that changed nothing visible (a dropped repeat, an
 * ignored beam) leave the last event as it was.
 */
import type { BinView } from "../../bin-lights.js";
import type { EngineInput, Outcome } from "../../engine.js";
import { EXCEPTION_CODES } from "../../scan-codes.js";
import { DIDS, type LastEvent, type Msg } from "./types.js";

/** `action`: what the tapped station operation was (its `did`), so the last event can say it in words. */
export type ScreenEventInput = EngineInput | { kind: "tap"; text: string; action?: string };

/** What the last event reads of an input's outcome. */
export type EventResult = Pick<Outcome, "result" | "did" | "reason" | "params">;

/**
 * Work that ends something: its bin may now be complete (the "complete" tone). An exception never
 * sounds the completion chord: what it ends, it ends short.
 */
const FINISHING = new Set(["picked", "put"]);
const KNOWN_DIDS = new Set<string>(DIDS);

function describe(input: ScreenEventInput): Pick<LastEvent, "input" | "text"> {
  switch (input.kind) {
    case "scan":
      return { input: "scan", text: input.barcode };
    case "keyin":
      return { input: "keyin", text: String(input.quantity) };
    case "bin":
      return { input: input.signal === "sensor" ? "beam" : "button", text: input.binId };
    case "tap":
      return { input: "tap", text: input.text };
    case "problem":
      return { input: "tap", text: `${input.problem} ${input.quantity}` };
    default:
      return { input: "tap", text: "" };
  }
}

function messageOf(outcome: EventResult, knownReasons: ReadonlySet<string>): Msg {
  if (outcome.result === "refused") {
    const reason = outcome.reason ?? "";
    return { key: knownReasons.has(reason) ? `refusal.${reason}` : "refusal.other" };
  }
  const did = outcome.did ?? "";
  const params = outcome.params ? { params: outcome.params } : {};
  return KNOWN_DIDS.has(did) ? { key: `did.${did}`, ...params } : { key: "did.other" };
}

const KNOWN_EXCEPTIONS = new Set<string>(EXCEPTION_CODES);
const EXCEPTION_SCAN = /^EXC-([A-Z_]+)$/;
const BADGE_SCAN = /^BADGE-(.+)$/;
/** A tapped station operation's words, by what it did (actions.ts `operation`); the bin or mode follows. */
const TAP_SAID: Readonly<Record<string, string>> = {
  binEmptied: "said.empty",
  release: "said.release",
  reprinted: "said.reprint",
  print_sent: "said.reprint",
  label_skipped: "said.skip_label",
  supervisor_called: "said.supervisor",
  language_set: "said.language",
};

/** The input in words (docs/station.md#operator-screen "Last"): a command code or a bin id is never shown raw. */
export function saidOf(input: ScreenEventInput): Msg {
  switch (input.kind) {
    case "scan": {
      const exc = EXCEPTION_SCAN.exec(input.barcode);
      if (exc && KNOWN_EXCEPTIONS.has(exc[1] ?? "")) return { key: `exception.${exc[1]}` };
      const badge = BADGE_SCAN.exec(input.barcode);
      if (badge) return { key: "said.badge", params: { name: badge[1] ?? "" } };
      return { key: "said.scan", params: { code: input.barcode } };
    }
    case "keyin":
      return { key: "said.keyin", params: { quantity: input.quantity } };
    case "bin":
      return { key: input.signal === "sensor" ? "said.beam" : "said.button", params: { bin: input.binId } };
    case "problem":
      return { key: `said.problem.${input.problem}`, params: { quantity: input.quantity } };
    case "tap": {
      if (input.action === "mode_set") return { key: `said.mode.${input.text}` };
      const key = input.action ? TAP_SAID[input.action] : undefined;
      return key ? { key, params: { bin: input.text } } : { key: "said.tap" };
    }
    default:
      return { key: "said.changed" };
  }
}

export function lastEventOf(e: {
  seq: number;
  at: number;
  input: ScreenEventInput;
  outcome: EventResult;
  /** the bin the seat's pending work had lit before the input */
  binBefore: string | null;
  binsAfter: readonly BinView[];
  /** reasons the catalogues have a message for */
  knownReasons: ReadonlySet<string>;
}): LastEvent | null {
  const { outcome } = e;
  if (outcome.result === "debounced" || outcome.result === "ignored") return null;
  if (outcome.result === "done" && (outcome.did === "unchanged" || outcome.did === "ignored")) return null;
  const after = e.binsAfter.find((b) => b.id === e.binBefore);
  const finished =
    outcome.result === "done" &&
    FINISHING.has(outcome.did ?? "") &&
    after !== undefined &&
    (after.state === "complete" || after.completePut !== null);
  return {
    seq: e.seq,
    at: new Date(e.at).toISOString(),
    ...describe(e.input),
    said: saidOf(e.input),
    result: outcome.result,
    ...(outcome.did ? { did: outcome.did } : {}),
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    tone: outcome.result === "refused" ? "refused" : finished ? "complete" : "good",
    message: messageOf(outcome, e.knownReasons),
    ...(finished && e.binBefore !== null ? { bin: e.binBefore } : {}),
  };
}
