/**
 * The parts of the screen state made for an operator at arm's length (pure; docs/station.md#operator-screen):
 * the alert that takes over the instruction area after a refusal, the task card of the current line,
 * the problems that can be reported now, device and printer notices in plain words, what the numpad
 * needs, and the sound to play. Time comes in as `input.now`; nothing here reads a clock.
 */

import type { LightColor } from "../../../devices/hub.types.js";
import type { Desired } from "../../bin-lights.js";
import { scanEach } from "../../seat.pick.js";
import { EXCEPTION_OF, problemOptions } from "../../seat.problem.js";
import type { PickTarget, SeatState } from "../../seat.types.js";
import { faceOf } from "./face.js";
import { suggestedPutCard } from "./put-slot.js";
import { isLit } from "./task.js";
import type {
  Alert,
  BinOrder,
  BinTile,
  Card,
  KeyIn,
  LastEvent,
  Msg,
  Notice,
  Problem,
  ScreenInput,
  Sound,
} from "./types.js";

const msg = (key: string, params?: Msg["params"]): Msg => (params ? { key, params } : { key });

/** Whether a refusal shows now. */
export const showing = (input: ScreenInput): boolean =>
  input.refusal != null && (input.now ?? 0) < input.refusal.until;

// ---- alert ----

/**
 * The takeover of the instruction area while a refusal's error signal lasts. `knownReasons` and
 * `insteadReasons` are the reasons the catalogues word (messages.ts); any other is said generally.
 */
export function alertOf(
  input: ScreenInput,
  knownReasons: ReadonlySet<string>,
  insteadReasons: ReadonlySet<string>,
): Alert | null {
  const r = input.refusal;
  if (!r || !showing(input)) return null;
  let reason: Msg;
  if (r.reason === "bin_not_lit")
    reason = r.lit
      ? msg("alert.bin_not_lit", { bin: r.bin ?? "", lit: r.lit })
      : msg("alert.bin_not_lit_none", { bin: r.bin ?? "" });
  else reason = msg(knownReasons.has(r.reason) ? `refusal.${r.reason}` : "refusal.other");
  const item = r.item ? (r.item.description ? `${r.item.description} · ${r.item.sku}` : r.item.sku) : null;
  const instead = insteadReasons.has(r.reason) ? `instead.${r.reason}` : "instead.other";
  return { kind: "refused", reason, code: r.code, item, instead: msg(instead), until: r.until };
}

// ---- bins ----

/** How a complete bin's (or tote's) orders ended: short when any was settled short. */
export function outcomeOf(
  state: string,
  completePut: boolean,
  orders: readonly BinOrder[],
): BinTile["outcome"] {
  if (state !== "complete" && !completePut) return null;
  return orders.some((o) => o.state === "abandoned") ? "short" : "complete";
}

export function signalOf(input: ScreenInput, bin: string): BinTile["signal"] {
  return showing(input) && input.refusal?.signalBin === bin ? "error" : null;
}

/** The colour the bin's light shows, by its name: the page draws it in its own readable shade. */
export const colorOf = (light: Desired): LightColor | null => (light.mode === "show" ? light.color : null);

// ---- card ----

/** The next pick line as the seat machine's work (the problems before a scan are about it). */
export function nextPick(input: Pick<ScreenInput, "pickLines">): PickTarget | null {
  const row = input.pickLines[0];
  if (!row) return null;
  return {
    externalServiceRequestId: row.order,
    line: row.line,
    location: row.slot,
    itemId: row.itemId,
    quantity: row.quantity,
    binId: row.bin,
    scanRequired: row.scanRequired,
  };
}

function pickCard(input: ScreenInput, state: SeatState, bins: readonly BinTile[]): Card | null {
  const lines = input.pickLines;
  // one grid per rack: every known slot of the presented racks, not only the lines shown (face.ts)
  const known = [...(input.rackSlots ?? []), ...lines.map((l) => l.slot)];
  // line n of m counts the lines done on the presented racks since they came (state/rack-visit.ts)
  const done = input.pickDone ?? 0;
  const colour = (bin: string | null) => {
    const tile = bins.find((b) => b.id === bin);
    return tile ? colorOf(tile.light) : null;
  };
  if (state.step === "pick_confirm") {
    const p = state.pick;
    const i = lines.findIndex((r) => isLit(r, state));
    return {
      phase: "put",
      row: lines[i] ?? null,
      slot: p.location,
      face: faceOf(p.location, known),
      quantity: p.quantity - (state.scanned ?? 0),
      line: done + (i < 0 ? 1 : i + 1),
      lines: done + Math.max(1, lines.length),
      bin: p.binId,
      binColor: colour(p.binId),
    };
  }
  const next = lines[0];
  if (state.step !== "ready" || !next) return null;
  return {
    phase: "take",
    row: next,
    slot: next.slot,
    face: faceOf(next.slot, known),
    quantity: next.quantity,
    line: done + 1,
    lines: done + lines.length,
    bin: next.bin,
    binColor: colour(next.bin),
  };
}

function putCard(input: ScreenInput, state: SeatState, bins: readonly BinTile[]): Card | null {
  if (state.step === "put_slot") return suggestedPutCard(input, state, bins);
  if (state.step !== "put_confirm") return null;
  const items = input.puts.filter((r) => r.putId === state.put.externalServiceRequestId);
  const i = items.findIndex((r) => r.itemId === state.put.itemId);
  const tile = bins.find((b) => b.id === state.put.binId);
  return {
    phase: "put",
    row: items[i] ?? null,
    slot: state.location,
    face: faceOf(state.location, input.rackSlots ?? []),
    quantity: state.quantity,
    line: i < 0 ? 1 : i + 1,
    lines: Math.max(1, items.length),
    bin: state.put.binId,
    binColor: tile ? colorOf(tile.light) : null,
  };
}

/** The current line's card: pick before the scan (take from the slot) and after (put into the bin); put at its slot. */
export function cardOf(input: ScreenInput, state: SeatState, bins: readonly BinTile[]): Card | null {
  if (input.operator === null) return null;
  if (input.mode === "pick") return pickCard(input, state, bins);
  if (input.mode === "put") return putCard(input, state, bins);
  return null;
}

// ---- problems ----

function destination(kind: Problem["kind"], input: ScreenInput): Msg {
  if (kind === "damaged")
    return input.damageBin ? msg("problem.to.damage_bin", { bin: input.damageBin }) : msg("problem.to.slot");
  if (kind === "extra")
    return input.irtBin ? msg("problem.to.irt_bin", { bin: input.irtBin }) : msg("problem.to.tote");
  return msg("problem.to.nothing");
}

/** The question the numpad asks for a problem: which number it wants (docs/decisions.md#operator-screen). */
const askKey = (mode: ScreenInput["mode"], kind: Problem["kind"]): string =>
  mode === "put" && (kind === "missing" || kind === "wrong_slot")
    ? `problem.ask.put.${kind}`
    : `problem.ask.${kind}`;

export function problemsOf(input: ScreenInput, state: SeatState): Problem[] {
  if (input.operator === null) return [];
  return problemOptions(state, input.mode, input.seat, nextPick(input)).map((o) => ({
    kind: o.kind,
    // a put's missing unit is not in the tote and its slot has no room: words of their own
    label: msg(
      input.mode === "put" && (o.kind === "missing" || o.kind === "wrong_slot")
        ? `problem.put.${o.kind}`
        : `problem.${o.kind}`,
    ),
    max: o.max,
    default: o.default,
    ask: msg(askKey(input.mode, o.kind)),
    destination: destination(o.kind, input),
    replaces: EXCEPTION_OF[o.kind],
  }));
}

// ---- notices ----

/** A failed label's cause in words: never the printer's raw error text. */
/** The renderer's refusals (labels/shipping-label.ts): text it cannot print, an address too long, no font. */
const LABEL_REFUSED =
  /which the label cannot print|^the shipping address does not fit the label|^the OLPN '|^the label font /;

export function printCause(
  error: string,
): "refused" | "not_installed" | "no_answer" | "failed" | "carrier" | "carrier_format" {
  // the agent's own label refused in words: the words are the notice (docs/station.md#shipping-labels-pickpack)
  if (LABEL_REFUSED.test(error)) return "refused";
  // the carrier's label (docs/station.md#carrier-labels): its fetch failed, or the printer cannot take it;
  // its causes (a 404 "Not Found", a timeout) are the carrier's, not the printer's
  if (error.startsWith("the carrier's label could not be fetched")) return "carrier";
  if (/^the carrier served \w+; the printer at this station takes/.test(error)) return "carrier_format";
  const e = error.toLowerCase();
  if (/enoent|not found|no such file|unknown printer|does not exist|not installed/.test(e))
    return "not_installed";
  if (
    /econnrefused|connection refused|timeout|timed out|etimedout|ehostunreach|econnreset|not responding/.test(
      e,
    )
  )
    return "no_answer";
  return "failed";
}

export function noticesOf(input: ScreenInput): Notice[] {
  const out: Notice[] = [];
  if (input.storageBudgetSpent) out.push({ kind: "storage_budget", text: msg("notice.storage_budget") });
  const down = new Set(input.devices.filter((d) => !d.connected).map((d) => d.id));
  if ((input.scanners ?? []).some((id) => down.has(id)))
    out.push({ kind: "scanner_down", text: msg("notice.scanner_down") });
  const dark = Object.entries(input.binLights ?? {})
    .filter(([, device]) => down.has(device))
    .map(([bin]) => bin);
  if (dark.length)
    out.push({ kind: "lights_down", text: msg("notice.lights_down", { bins: dark.join(", ") }), bins: dark });
  if (input.operator !== null)
    for (const [bin, error] of Object.entries(input.printErrors))
      out.push({
        kind: "printer_failed",
        text:
          printCause(error) === "refused"
            ? msg("notice.printer_refused", { bin, reason: error })
            : msg(`notice.printer_${printCause(error)}`, { bin }),
        bins: [bin],
        actions: input.stationPrinting ? ["reprint", "skip", "supervisor"] : ["skip", "supervisor"],
      });
  return out;
}

export const manualEntryOf = (notices: readonly Notice[]): boolean =>
  notices.some((n) => n.kind === "scanner_down");

// ---- numpad ----

export function keyinOf(input: ScreenInput, state: SeatState, allowed: boolean): KeyIn | null {
  if (!allowed) return null;
  if (state.step === "pick_confirm") {
    const sku = input.pickLines.find(
      (r) => r.order === state.pick.externalServiceRequestId && r.line === state.pick.line,
    )?.sku;
    const item = sku ?? "";
    const expected = state.pick.quantity;
    return { item, expected, max: expected, label: msg("ui.numpad_item", { item, expected }) };
  }
  if (state.step === "put_slot" || state.step === "put_confirm")
    return scanEach(state.put)
      ? null
      : {
          item: state.put.sku,
          expected: state.put.left,
          max: state.put.left,
          label: msg("ui.numpad_item", { item: state.put.sku, expected: state.put.left }),
        };
  if (state.step === "audit_count" && state.last !== null) {
    // a blind count: the expected stock is not shown; `expected` is what is counted so far
    const line = input.audit?.lines.find((l) => l.auditLineId === state.last);
    const item = line?.sku ?? "";
    const counted = state.counts[state.last] ?? 0;
    return {
      item,
      expected: counted,
      max: 1_000_000,
      // never "expected": the count is blind (docs/station.md#operator-screen)
      label: msg("numpad.counted_so_far", { item, counted }),
    };
  }
  return null;
}

// ---- sound ----

/** The completion chord only for an order or tote that ended complete; the error tone for a refusal. */
export function soundOf(lastEvent: LastEvent | null, bins: readonly BinTile[]): Sound | null {
  if (!lastEvent) return null;
  const at = Date.parse(lastEvent.at);
  if (lastEvent.result === "refused") return { kind: "error", at };
  if (lastEvent.tone !== "complete") return null;
  const bin = bins.find((b) => b.id === lastEvent.bin);
  return bin && bin.outcome === "complete" ? { kind: "complete", at } : null;
}
