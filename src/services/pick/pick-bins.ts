import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { AppError } from "../domain/errors.js";
import { isRefusal } from "../domain/machine.js";
import { type PickState, stepPick } from "../domain/pick.machine.js";
import { orderWork, type PickWork, SIMPLE_PRIORITIES } from "../domain/work-order.js";
import type { LabelData } from "../labels/shipping-label.js";
import { applyPickEffects } from "./pick-effects.js";
import { parseJson, ppsIdValue, type RequestContext, viewOf } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

const FINAL: readonly string[] = ["complete", "abandoned", "cancelled", "not_fulfillable"];
const DONE: readonly string[] = ["complete", "abandoned"];

export function workOf(r: RequestRow): PickWork & { row: RequestRow } {
  return {
    id: r.externalId,
    sequence: r.id,
    priority: SIMPLE_PRIORITIES[r.priorityRank] ?? "normal",
    pickBeforeMs: r.pickBefore,
    pickAfterMs: r.pickAfter,
    row: r,
  };
}

/**
 * Order bins (DESIGN.md §4 Pick): a fulfillable request gets a free bin in work order; a rack holding
 * its stock locks it; when every request of a bin is done the bin is complete (bin_complete), and for
 * pick+pack it waits for print-ready before it may be emptied.
 */
export function createBinsService(ctx: RequestContext, stock: StockRepo) {
  const hooks = { checkBin: (tx: Tx, binId: string) => checkBin(tx, binId) };

  function setExecution(row: RequestRow, patch: Record<string, unknown>): RequestRow {
    const exec = { ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}), ...patch };
    return { ...row, executionJson: JSON.stringify(exec) };
  }

  /** Gives free bins to released fulfillable requests, in work order; only in pick mode. */
  /**
   * `lock: "if-assigned"` (a newly allocated request): only a request that got a bin just now can have
   * become lockable, so the presented racks are looked at only then.
   */
  function assignBins(tx: Tx, lock: "always" | "if-assigned" = "always"): void {
    if (ctx.station.mode() !== "pick") return;
    let assigned = 0;
    const free = ctx.station.bins().filter((b) => b.state === "empty");
    const waiting = free.length
      ? ctx.requests.byStates("PICK", ["fulfillable"]).filter((r) => r.binId === null)
      : [];
    for (const w of orderWork(waiting.map(workOf), tx.now)) {
      const bin = free.shift();
      if (!bin) break;
      const row = setExecution(
        { ...w.row, binId: bin.id, updatedOn: tx.now },
        { pps_id: ctx.ppsId, pps_bin_id: bin.id, execution_id: `${ctx.ppsId}-${w.row.id}` },
      );
      ctx.requests.update(row);
      ctx.station.setBin(bin.id, "pick", "none", tx.now);
      tx.announce("request", { type: "PICK", externalServiceRequestId: row.externalId });
      tx.announce("station", {});
      assigned++;
    }
    if (lock === "always" || assigned > 0) lockAtPresentedRacks(tx);
  }

  /** "first rack reached": a fulfillable request with a bin and stock on a presented rack is locked. */
  function lockAtPresentedRacks(tx: Tx, only?: string[]): void {
    if (ctx.station.mode() !== "pick") return;
    const racks = only ?? stock.racks().map((r) => r.msu);
    const locations = racks.flatMap((msu) => stock.locationsOfMsu(msu));
    if (!locations.length) return;
    const candidates = ctx.requests
      .requestsReservedAt(locations)
      .map((id) => ctx.requests.byId(id))
      .filter((r): r is RequestRow => r !== undefined && r.state === "fulfillable" && r.binId !== null);
    for (const w of orderWork(candidates.map(workOf), tx.now)) {
      const step = stepPick(w.row.state as PickState, { type: "rack_reached" });
      if (isRefusal(step)) continue;
      applyPickEffects(tx, ctx, stock, w.row, step.state, step.effects, hooks);
    }
  }

  function checkBin(tx: Tx, binId: string): void {
    const inBin = ctx.requests.inBin(binId);
    if (!inBin.length || !inBin.every((r) => FINAL.includes(r.state))) return;
    const done = inBin.filter((r) => DONE.includes(r.state));
    if (!done.length) {
      // Everything in the bin was cancelled before a pick: nothing is physically there.
      for (const r of inBin) ctx.requests.update({ ...r, binId: null, updatedOn: tx.now });
      ctx.station.setBin(binId, "empty", "none", tx.now);
      tx.announce("station", {});
      assignBins(tx);
      return;
    }
    const pack = done.some((r) => r.isPack);
    ctx.station.setBin(binId, "complete", pack ? "waiting" : "none", tx.now);
    tx.announce("binComplete", {
      binId,
      pack,
      requests: done.filter((r) => r.isPack).map((r) => r.externalId),
    });
    tx.notify("bin_complete", {
      ppsId: ppsIdValue(ctx.ppsId),
      ppsBinId: binId,
      serviceRequests: done.map((r) => viewOf(r, ctx)),
    });
    tx.announce("station", {});
  }

  return {
    assignBins,
    lockAtPresentedRacks,
    checkBin,
    hooks,

    /** What the shipping label of a pick+pack order shows (labels/shipping-label.ts). */
    labelData(externalId: string, printedAt: string): LabelData | undefined {
      const row = ctx.requests.find("PICK", externalId);
      if (!row?.isPack) return undefined;
      const lines = ctx.requests.lines(row.id);
      const pack = parseJson<Record<string, unknown>>(lines[0]?.attributesJson ?? null) ?? {};
      const exec = parseJson<Record<string, unknown>>(row.executionJson) ?? {};
      const str = (v: unknown) => (typeof v === "string" ? v : undefined);
      return {
        externalServiceRequestId: row.externalId,
        olpn: str(exec.olpn) ?? `${ctx.ppsId}-${row.id}`,
        orderNumber: str(pack.order_number),
        shippingAddress: str(pack.shipping_address),
        carrierLabelUrl: str(pack.carrier_label_url),
        packingBoxId: str(pack.packing_box_id),
        packingBoxType: str(pack.packing_box_type),
        station: `${ctx.ppsId}/${str(exec.pps_bin_id) ?? row.binId ?? "?"}`,
        lines: lines.map((l) => ({
          filter: (JSON.parse(l.filtersJson) as string[]).join(" and "),
          quantity: l.picked,
        })),
        printedAt,
      };
    },

    /** print_ready: the external printing of a pick+pack order is done; its bin may be released. */
    printReady(tx: Tx, externalId: string): void {
      const row = ctx.requests.find("PICK", externalId);
      if (!row) {
        throw new AppError("not_found", `no PICK service request '${externalId}'`, [
          { path: "externalServiceRequestId", message: "unknown" },
        ]);
      }
      const bin = row.binId ? ctx.station.bin(row.binId) : undefined;
      if (!row.isPack || !bin || bin.printState !== "waiting") {
        throw new AppError(
          "invalid_order_status",
          `order '${externalId}' is not waiting for print (state ${row.state})`,
          [{ path: "externalServiceRequestId", message: "the order is not waiting for print-ready" }],
        );
      }
      ctx.station.setBin(bin.id, "complete", "done", tx.now);
      const lines = ctx.requests.lines(row.id);
      const view = viewOf(row, ctx);
      const first = lines[0] ? parseJson<Record<string, unknown>>(lines[0].attributesJson) : null;
      tx.notify("pack_information", {
        serviceRequest: { ...view, type: "PACK" },
        externalServiceRequestId: row.externalId,
        packedOn: new Date(tx.now).toISOString(),
        products: lines.map((l) => ({
          productQuantity: l.picked,
          productAttributes: { filter_parameters: JSON.parse(l.filtersJson) },
        })),
        packing_box_id: first?.packing_box_id ?? null,
        output_location_id: bin.id,
        olpn: (view.attributes as Record<string, unknown> | null)?.olpn ?? null,
      });
      tx.announce("station", {});
    },

    /** The operator took the bin's contents away: it is free for the next request. */
    emptied(tx: Tx, binId: string): void {
      const bin = ctx.station.bin(binId);
      if (!bin)
        throw new AppError("not_found", `no bin '${binId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
      if (bin.state === "empty") return;
      if (bin.state !== "complete") {
        throw new AppError("invalid_state", `bin '${binId}' holds work in progress (${bin.state})`, [
          {
            path: "ppsBinId",
            message: bin.state === "put" ? "release the tote first" : "its requests are not done",
          },
        ]);
      }
      if (bin.printState === "waiting") {
        throw new AppError("invalid_state", `bin '${binId}' waits for print-ready`, [
          { path: "ppsBinId", message: "the label of this pick+pack bin is not printed yet" },
        ]);
      }
      for (const r of ctx.requests.inBin(binId))
        ctx.requests.update({ ...r, binId: null, updatedOn: tx.now });
      ctx.station.setBin(binId, "empty", "none", tx.now);
      tx.announce("station", {});
      assignBins(tx);
    },
  };
}

export type BinsService = ReturnType<typeof createBinsService>;
