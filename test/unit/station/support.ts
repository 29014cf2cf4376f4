/** Builders for the seat machine's inputs, so each row of a table states only what it is about. */
import { heldBySeats } from "../../../src/station/bin-lights.js";
import type {
  AuditView,
  DataMeaning,
  OpCall,
  PickTarget,
  PutTarget,
  SeatFacts,
  SeatInput,
  SeatState,
  SeatStep,
} from "../../../src/station/seat.types.js";

export const item = (itemId = 1, sku = "A"): DataMeaning => ({ kind: "item", itemId, sku });
export const slot = (location = "S1", presented = true, msu = "M1"): DataMeaning => ({
  kind: "slot",
  location,
  msu,
  presented,
});
export const msu = (id = "M1", presented = false): DataMeaning => ({
  kind: "msu",
  msu: id,
  locations: ["S1", "S2"],
  presented,
});
export const tote = (state = "staged", id = "U1"): DataMeaning => ({
  kind: "tote",
  externalServiceRequestId: id,
  state,
  binId: "3",
});

export const pick = (over: Partial<PickTarget> = {}): PickTarget => ({
  externalServiceRequestId: "P1",
  line: "P1-L1",
  location: "S1",
  itemId: 1,
  quantity: 3,
  binId: "2",
  ...over,
});

export const put = (over: Partial<PutTarget> = {}): PutTarget => ({
  externalServiceRequestId: "U1",
  sku: "A",
  itemId: 1,
  left: 5,
  binId: "3",
  toteId: "T1",
  ...over,
});

export const audit = (kq = false): AuditView => ({
  auditId: "AU1",
  kq,
  lines: [
    { auditLineId: "AU1-1", location: "S1", itemId: 1, open: true },
    { auditLineId: "AU1-2", location: "S1", itemId: 2, open: true },
    { auditLineId: "AU1-3", location: "S2", itemId: 1, open: true },
    { auditLineId: "AU1-4", location: "S3", itemId: 3, open: true },
  ],
});

export function facts(over: Partial<SeatFacts> = {}): SeatFacts {
  return { mode: "pick", seat: "front", user: "alice", picks: [], puts: [], audit: null, ...over };
}

export const scan = (barcode: string, meanings: DataMeaning[], w: Partial<SeatFacts> = {}): SeatInput => ({
  type: "scan",
  barcode,
  meanings,
  facts: facts(w),
});
export const keyin = (quantity: number, w: Partial<SeatFacts> = {}): SeatInput => ({
  type: "keyin",
  quantity,
  facts: facts(w),
});
export const bin = (
  binId: string,
  signal: "confirm" | "sensor" | "shortage" = "confirm",
  w: Partial<SeatFacts> = {},
): SeatInput => ({ type: "bin", binId, signal, facts: facts(w) });

export const READY_STATE: SeatState = { step: "ready", tote: null };
export const PICKING: SeatState = { step: "pick_confirm", pick: pick() };
export const PUT_SLOT: Extract<SeatState, { step: "put_slot" }> = {
  step: "put_slot",
  tote: null,
  put: put(),
  quantity: 2,
};
export const PUT_CONFIRM: SeatState = {
  step: "put_confirm",
  tote: null,
  put: put(),
  quantity: 2,
  location: "S9",
};
export const COUNTING: SeatState = {
  step: "audit_count",
  auditId: "AU1",
  location: "S1",
  counts: { "AU1-1": 2 },
  last: "AU1-1",
};

/**
 * One step as text: `refused <reason>`, or `<step> <did> | <calls>, lit <lights>` (see `call`), where
 * the lights are what the new state holds on (bin-lights.ts `heldBySeats`, what reaches the hardware):
 * `2=3` bin 2 showing 3, `slot S9=2` a slot showing 2, `none` when it holds nothing.
 */
export function fmt(out: SeatStep): string {
  if (!out.ok) return `refused ${out.reason}`;
  return `${out.state.step} ${out.resolved.did} | ${[...out.calls.map(call), lit(out.state)].join(", ")}`;
}

/** The lights a seat's state holds on, as `lit 2=3 slot S9=2` or `lit none`. */
export function lit(state: SeatState): string {
  const held = heldBySeats([state]);
  const bins = [...held.bins].map(([b, q]) => `${b}=${q}`);
  const slots = [...held.slots].map(([s, q]) => `slot ${s}=${q}`);
  return `lit ${[...bins, ...slots].join(" ") || "none"}`;
}

export function call(c: OpCall): string {
  switch (c.op) {
    case "login":
      return `login ${c.user}`;
    case "rackPresented":
      return `present ${c.input.msu}[${c.input.locations.join(",")}]`;
    case "pick": {
      const p = c.input;
      return `pick ${p.externalServiceRequestId}/${p.line}@${p.location}x${p.quantity}`;
    }
    case "pickException": {
      const e = c.input;
      return `${e.reason} ${e.externalServiceRequestId}/${e.line}x${e.quantity}`;
    }
    case "put": {
      const p = c.input;
      return `put ${p.externalServiceRequestId}/#${p.uid}@${p.location}x${p.quantity}`;
    }
    case "putException": {
      const e = c.input;
      return `${e.reason} ${e.externalServiceRequestId}/#${e.uid}x${e.quantity}`;
    }
    case "release":
      return `release ${c.externalServiceRequestId}`;
    case "binEmptied":
      return `empty ${c.binId}`;
    case "auditCount":
      return `count ${c.input.audit_line_id}=${c.input.good_qty}`;
    default:
      return c.op;
  }
}

export interface Row {
  name: string;
  start: SeatState;
  input: SeatInput;
  want: string;
  state?: object;
}

export const row = (name: string, start: SeatState, input: SeatInput, want: string, state?: object): Row =>
  state ? { name, start, input, want, state } : { name, start, input, want };
