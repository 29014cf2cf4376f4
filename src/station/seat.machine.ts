/**
 * The seat machine (pure): `(seat state, input) → { state, calls }` or a refusal. It decides what a
 * scan means by the step the seat is in (docs/architecture.md#flows flows made physical): the same text may be an
 * item, a slot, an MSU or a tote in the data, and only the step says which one counts. A refusal
 * changes nothing; the shell answers it with an error signal. The shell makes the `calls` first and sets
 * the lights from the new state only after they committed (bin-lights.ts `heldBySeats`): a light goes on
 * only after its transaction committed (docs/architecture.md#layers).
 */
import { type ExceptionCode, fixedMeaning } from "./scan-codes.js";
import { captureConfirm, captureScan, capturing, lightCapture } from "./seat.capture.js";
import { lightPick, pickConfirm, pickException, pickScan, scanEach } from "./seat.pick.js";
import {
  auditException,
  auditItem,
  auditKeyin,
  auditSlot,
  commitLocation,
  putConfirm,
  putException,
  putItem,
  putKeyin,
  putSlot,
  tote,
} from "./seat.put-audit.js";
import { moved, refused } from "./seat.result.js";
import {
  type DataMeaning,
  READY,
  type Resolved,
  type SeatFacts,
  type SeatInput,
  type SeatState,
  type SeatStep,
} from "./seat.types.js";

/**
 * A barcode that is only a packing level's (docs/station.md#station-engine-scans-lights-and-buttons): counting it as one unit would
 * book a case of twelve as one, so it is refused and the unit's own barcode asked for.
 */
function levelOnly(meanings: DataMeaning[]): Extract<DataMeaning, { kind: "level" }> | undefined {
  const level = meanings.find((m) => m.kind === "level");
  return level && meanings.every((m) => m.kind === "level") ? level : undefined;
}

function levelText(barcode: string, m: Extract<DataMeaning, { kind: "level" }>): string {
  return `'${barcode}' is the barcode of a packing level of ${m.sku} (${m.levelPath}): scan a unit's own barcode`;
}

/** The meaning the step accepts, in the step's order of preference. */
function choose(meanings: DataMeaning[], order: DataMeaning["kind"][]): DataMeaning | undefined {
  for (const kind of order) {
    const found = meanings.find((x) => x.kind === kind);
    if (found) return found;
  }
  return undefined;
}

function present(state: SeatState, m: Extract<DataMeaning, { kind: "msu" }>): SeatStep {
  if (m.presented) return moved(state, [], "msu", "rack_already_presented");
  return moved(
    state,
    [{ op: "rackPresented", input: { msu: m.msu, locations: m.locations } }],
    "msu",
    "rack_presented",
  );
}

const ORDER: Record<SeatFacts["mode"], DataMeaning["kind"][]> = {
  pick: ["item", "slot", "msu"],
  put: ["tote", "item", "msu"],
  audit: ["slot", "item", "msu"],
};

function scanReady(state: Extract<SeatState, { step: "ready" }>, m: DataMeaning, w: SeatFacts): SeatStep {
  if (m.kind === "msu") return present(state, m);
  if (w.mode === "pick") {
    if (m.kind === "slot" && !m.presented)
      return refused("slot_not_presented", `slot ${m.location} is not on a presented rack`, "slot");
    const pick =
      m.kind === "item"
        ? w.picks.find((p) => p.itemId === m.itemId)
        : w.picks.find((p) => m.kind === "slot" && p.location === m.location);
    if (!pick && w.otherSeat)
      return refused("other_seat", `this ${m.kind}'s work is lit at another seat`, m.kind);
    if (!pick) return refused("no_work", `nothing to pick for this ${m.kind} at a presented slot`, m.kind);
    const as = m.kind === "item" ? "item" : "slot";
    if (pick.capture?.length) return lightCapture(pick, m, w, as);
    return lightPick(pick, as, w.seat);
  }
  if (w.mode === "put") return m.kind === "tote" ? tote(m) : putItem(state, m, w);
  return m.kind === "slot" ? auditSlot(state, m, w) : auditItem(state, m, w);
}

function scanData(state: SeatState, meanings: DataMeaning[], w: SeatFacts): SeatStep {
  if (state.step === "pick_confirm") return pickScan(state, meanings, w.seat);
  // past ready (counting, putting): another unit of the item, or the next slot
  const order: DataMeaning["kind"][] = state.step === "ready" ? ORDER[w.mode] : ["item", "slot"];
  const m = choose(meanings, order);
  if (!m)
    return refused("not_this_step", `a ${meanings[0]?.kind} scan is not expected now`, meanings[0]?.kind);
  if (state.step === "ready") return scanReady(state, m, w);
  if (state.step === "audit_count")
    return m.kind === "slot" ? auditSlot(state, m, w) : auditItem(state, m, w);
  return m.kind === "slot" ? putSlot(state, m) : putItem(state, m, w);
}

function badge(state: SeatState, user: string, w: SeatFacts): SeatStep {
  // an empty seat may hold work kept over an idle sign-out: the next operator takes it over
  // (docs/station.md#idle-logout)
  if (w.user === null) return moved(state, [{ op: "login", seat: w.seat, user }], "badge", "logged_in");
  if (state.step !== "ready")
    return refused("finish_first", "finish or cancel the pending work first", "badge");
  if (w.user === user) return moved(READY, [{ op: "logout", seat: w.seat }], "badge", "logged_out");
  return refused("seat_taken", `seat ${w.seat} is taken by ${w.user}`, "badge");
}

/** The pending work confirmed, by the button, the beam, EXC-CONFIRM or a key-in quantity. */
function confirm(state: SeatState, w: SeatFacts, as: Resolved["as"], quantity?: number): SeatStep {
  switch (state.step) {
    case "pick_confirm":
      if (capturing(state)) return captureConfirm(state, as, w.seat, quantity);
      return pickConfirm(state, as, w.seat, quantity);
    case "put_confirm":
      return putConfirm(state, as, w.seat, quantity);
    case "put_slot":
      return refused("not_this_step", "scan the target slot first", as);
    case "audit_count":
      return commitLocation(state, w, as);
    default:
      return refused("nothing_pending", "nothing to confirm at this seat", as);
  }
}

/** What a counter may report besides good units (the rest stays "not an audit move"). */
const AUDIT_EXCEPTIONS = new Set<ExceptionCode>(["PHYSICALLY_DAMAGED", "UNSCANNABLE"]);

function exception(state: SeatState, code: ExceptionCode, w: SeatFacts): SeatStep {
  if (code === "CANCEL") {
    if (state.step === "ready" && state.tote === null)
      return refused("nothing_pending", "nothing to cancel", "exception");
    const keep = state.step === "put_slot" || state.step === "put_confirm" ? state.tote : null;
    return moved({ step: "ready", tote: keep }, [], "exception", "cancelled", code);
  }
  if (code === "CONFIRM") {
    const step = confirm(state, w, "exception");
    return step.ok ? { ...step, resolved: { ...step.resolved, code } } : step;
  }
  if (state.step === "pick_confirm") return pickException(state, code, w.seat);
  if (state.step === "put_slot" || state.step === "put_confirm") return putException(state, code, w);
  if (state.step === "audit_count" && AUDIT_EXCEPTIONS.has(code)) return auditException(state, code, w);
  return refused("nothing_pending", "scan the item (or slot) the exception is about first", "exception");
}

export function stepSeat(state: SeatState, input: SeatInput): SeatStep {
  if (input.type === "changed") {
    if (input.stillValid || state.step === "ready") return moved(state, [], "none", "unchanged");
    return moved({ step: "ready", tote: null }, [], "none", "dropped");
  }
  const w = input.facts;
  if (input.type === "scan") {
    const fixed = fixedMeaning(input.barcode);
    if (fixed?.kind === "bad_code") return refused("bad_code", fixed.reason);
    if (fixed?.kind === "badge") return badge(state, fixed.user, w);
    if (w.user === null)
      return refused("not_logged_in", `no operator is logged in at seat ${w.seat}`, fixed?.kind);
    if (fixed?.kind === "exception") return exception(state, fixed.code, w);
    // a serial, lot or expiry date is known to no lookup: the step takes it (seat.capture.ts)
    if (capturing(state)) return captureScan(state, input.barcode, input.meanings, w);
    if (!input.meanings.length) return refused("unknown_barcode", `'${input.barcode}' is not known here`);
    const level = levelOnly(input.meanings);
    if (level) return refused("level_barcode", levelText(input.barcode, level), "level");
    return scanData(state, input.meanings, w);
  }
  if (w.user === null) return refused("not_logged_in", `no operator is logged in at seat ${w.seat}`);
  if (input.type === "keyin") {
    if (state.step === "put_slot") return putKeyin(state, input.quantity);
    if (state.step === "audit_count") return auditKeyin(state, input.quantity, w);
    return confirm(state, w, "keyin", input.quantity);
  }
  // a bin's button or beam: only the seat whose pending work lit that bin takes it
  // a beam confirms only a lit pick, and never one whose units are each scanned
  const beamPick = state.step === "pick_confirm" && !scanEach(state.pick);
  if (input.signal === "sensor" && !beamPick) return moved(state, [], "bin", "ignored");
  if (input.signal === "shortage") {
    if (state.step !== "pick_confirm")
      return refused("not_this_step", "shortage applies to a lit pick bin", "bin");
    return pickException(state, "ITEM_MISSING", w.seat);
  }
  const lit = pendingBin(state);
  if (lit !== input.binId)
    return refused("not_this_step", `bin ${input.binId} is not lit for this seat`, "bin");
  return confirm(state, w, "bin");
}

/** The bin whose button confirms the seat's pending work (the pick's bin, or the put's tote bin). */
export function pendingBin(state: SeatState): string | null {
  if (state.step === "pick_confirm") return state.pick.binId;
  if (state.step === "put_confirm" || state.step === "put_slot") return state.put.binId;
  return null;
}
