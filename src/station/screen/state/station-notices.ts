/**
 * The station's states an operator must know of, as notices on the seat's screen (pure;
 * docs/station.md#operator-screen "Notices"): a staging central asked for and the station refused, the
 * seat's work dropped mid-line because central changed its request, the link to central lost, the
 * outbox filling towards the bound from which work is refused (docs/limits.md). Each says in words what
 * happened and what to do; nothing here reads a clock or a device.
 */
import { mib, OUTBOX_NEAR_FULL, outboxFill } from "../../../domain/outbox-fill.js";
import type { SeatState } from "../../seat.types.js";
import type { DroppedWork, StageFailure, StationStateInput } from "./station-types.js";
import type { Msg, Notice, ScreenInput } from "./types.js";

const msg = (key: string, params?: Msg["params"]): Msg => (params ? { key, params } : { key });

/** From this share of either outbox bound on, the screen says when work will be refused (domain/outbox-fill.ts). */
export { OUTBOX_NEAR_FULL };

/** A refused staging in words: the first alert with a remedy of its own decides. */
export function stageFailureText(f: StageFailure): Msg {
  const tote = f.tote ?? f.put;
  if (f.codes.includes("pps_mode_incorrect"))
    return msg(f.mode === "audit" ? "notice.stage_wrong_mode_audit" : "notice.stage_wrong_mode_pick", {
      tote,
      bin: f.bin,
    });
  if (f.codes.includes("pps_bin_not_empty")) return msg("notice.stage_bin_not_empty", { tote, bin: f.bin });
  if (f.codes.includes("pps_bin_in_training"))
    return msg("notice.stage_bin_in_training", { tote, bin: f.bin });
  if (f.codes.includes("pps_not_logged_in")) return msg("notice.stage_not_logged_in", { tote, bin: f.bin });
  return msg("notice.stage_failed", { tote, bin: f.bin });
}

/** What to do with the units in hand when the seat's line was taken away. */
export function droppedText(d: DroppedWork): Msg {
  if (d.kind === "pick")
    return msg(
      d.cancelled
        ? "notice.dropped_pick_cancelled"
        : d.expired
          ? "notice.dropped_pick_expired"
          : "notice.dropped_pick_changed",
      {
        order: d.request,
        sku: d.sku,
        slot: d.slot ?? "",
      },
    );
  if (d.kind === "put") return msg("notice.dropped_put", { tote: d.tote ?? d.request, sku: d.sku });
  return msg("notice.dropped_audit", { slot: d.slot ?? "" });
}

/**
 * What a seat held when a change elsewhere dropped its pending work (`prev`, its state before), given
 * the request's state now and an item's SKU; null when it held nothing.
 */
export function droppedWork(
  prev: SeatState | undefined,
  reads: {
    requestState(type: "PICK" | "PUT", id: string): string | null;
    sku(itemId: number): string | null;
  },
): DroppedWork | null {
  if (!prev) return null;
  if (prev.step === "pick_confirm") {
    const p = prev.pick;
    const request = p.externalServiceRequestId;
    const state = reads.requestState("PICK", request);
    return {
      kind: "pick",
      request,
      cancelled: state === "cancelled",
      expired: state === "not_fulfillable",
      sku: reads.sku(p.itemId) ?? String(p.itemId),
      quantity: p.quantity,
      slot: p.location,
      tote: null,
    };
  }
  if (prev.step === "put_slot" || prev.step === "put_confirm") {
    const request = prev.put.externalServiceRequestId;
    const state = reads.requestState("PUT", request);
    return {
      kind: "put",
      request,
      cancelled: state === "cancelled" || state === "created",
      sku: prev.put.sku,
      quantity: prev.quantity,
      slot: prev.step === "put_confirm" ? prev.location : null,
      tote: prev.put.toteId ?? prev.tote,
    };
  }
  if (prev.step === "audit_count")
    return {
      kind: "audit",
      request: prev.auditId,
      cancelled: true,
      sku: "",
      quantity: 0,
      slot: prev.location,
      tote: null,
    };
  return null;
}

/** The outbox near full or full, in words of the bound that decides (changes, or MiB of them). */
function outboxNotice(
  link: NonNullable<ScreenInput["link"]>,
  state: "near_full" | "full",
  bound: "count" | "bytes",
): Notice {
  const kind = state === "full" ? "outbox_full" : "outbox_near_full";
  const bytes = bound === "bytes";
  const undelivered = bytes ? mib(link.undeliveredBytes ?? 0) : link.undelivered;
  const left = bytes
    ? mib(Math.max(0, (link.limitBytes ?? 0) - (link.undeliveredBytes ?? 0)))
    : Math.max(0, link.limit - link.undelivered);
  const text =
    state === "full"
      ? msg(bytes ? "notice.outbox_full_bytes" : "notice.outbox_full", { undelivered })
      : msg(bytes ? "notice.outbox_near_full_bytes" : "notice.outbox_near_full", { undelivered, left });
  return { kind, text, actions: ["supervisor"] };
}

/** The link to central and the outbox: work goes on while it can, and the screen says until when. */
export function linkNotices(link: ScreenInput["link"]): Notice[] {
  if (!link) return [];
  const out: Notice[] = [];
  const fill = outboxFill(link);
  if (fill.state !== "room") out.push(outboxNotice(link, fill.state, fill.bound));
  if (!link.connected) out.push({ kind: "central_unreachable", text: msg("notice.central_unreachable") });
  return out;
}

/**
 * Devices the device notices of operator.ts do not name: a label printer that is down, and buttons or
 * sensors (on a module of their own) that do not answer, for bins whose light still works.
 */
export function deviceNotices(input: ScreenInput): Notice[] {
  const out: Notice[] = [];
  const down = new Set(input.devices.filter((d) => !d.connected).map((d) => d.id));
  if (input.devices.some((d) => d.kind === "printer" && !d.connected))
    out.push({ kind: "printer_down", text: msg("notice.printer_down"), actions: ["supervisor"] });
  const printer = printerStateNotice(input.printerState);
  if (printer) out.push(printer);
  const lights = input.binLights ?? {};
  const deaf = Object.entries(input.binInputs ?? {})
    .filter(([bin, devices]) => !down.has(lights[bin] ?? "") && devices.some((d) => down.has(d)))
    .map(([bin]) => bin);
  if (deaf.length)
    out.push({ kind: "inputs_down", text: msg("notice.inputs_down", { bins: deaf.join(", ") }), bins: deaf });
  return out;
}

const PRINTER_CAUSES = ["paused", "paper_out", "head_open", "ribbon_out", "no_answer"];

/** The label printer's own state when it is not ok (docs/station.md#shipping-labels-pickpack). */
export function printerStateNotice(state: StationStateInput["printerState"]): Notice | null {
  if (!state || state.ok) return null;
  const cause = PRINTER_CAUSES.includes(state.cause ?? "") ? state.cause : "fault";
  return { kind: "printer_state", text: msg(`notice.printer_state_${cause}`), actions: ["supervisor"] };
}

/** The seat's notices of the station's states, after the device and printer notices (operator.ts). */
export function stationNoticesOf(input: ScreenInput): Notice[] {
  const out: Notice[] = deviceNotices(input);
  for (const r of input.releasedBins ?? [])
    out.push({
      kind: "bin_released",
      text: msg("notice.bin_released", { bin: r.bin, orders: r.orders.join(", ") }),
      bins: [r.bin],
    });
  if (input.dropped && input.operator !== null)
    out.push({ kind: "work_dropped", text: droppedText(input.dropped) });
  // a refusal for the mode holds while the station is in that mode (the shell forgets it after)
  for (const f of input.stageFailures ?? [])
    if (!f.codes.includes("pps_mode_incorrect") || f.mode === input.mode)
      out.push({ kind: "stage_failed", text: stageFailureText(f), bins: [f.bin], actions: ["supervisor"] });
  out.push(...linkNotices(input.link));
  return out;
}
