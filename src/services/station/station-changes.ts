import type { StationMode, StationRepo } from "../db/station.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import type { DeviceHealth } from "../devices/hub.types.js";
import { AppError } from "../domain/errors.js";
import { orderWork } from "../domain/work-order.js";
import { type BinsService, workOf } from "./bins.service.js";
import { parseJson, type RequestContext } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

/** Work in progress that ties the station to its mode: switching away would strand it. */
const BUSY: Record<StationMode, { type: "PICK" | "PUT"; states: string[] } | null> = {
  pick: { type: "PICK", states: ["cancellation_locked", "pick_started"] },
  put: { type: "PUT", states: ["stage_requested", "staged"] },
  audit: null,
};

/** Seats, mode, stock adjustments and the station's state as the screen shows it. */
export function createStationService(
  ctx: RequestContext,
  station: StationRepo,
  stock: StockRepo,
  bins: BinsService,
  /** Health of the station's devices (device hub); shown with the state so a maintainer sees what is unplugged. */
  devices: () => DeviceHealth[] = () => [],
) {
  function seat(name: string) {
    const s = station.seat(name);
    if (!s) throw new AppError("not_found", `no seat '${name}'`, [{ path: "seat", message: "unknown seat" }]);
    return s;
  }

  return {
    login(tx: Tx, name: string, user: string): void {
      const s = seat(name);
      if (s.userName && s.userName !== user) {
        throw new AppError("invalid_state", `seat '${name}' is taken by '${s.userName}'`, [
          { path: "seat", message: "log the other operator out first" },
        ]);
      }
      if (s.userName === user) return;
      station.login(name, user, tx.now);
      tx.announce("station", {});
    },

    logout(tx: Tx, name: string): void {
      seat(name);
      station.login(name, null, null);
      tx.announce("station", {});
    },

    setMode(tx: Tx, mode: StationMode, auditBusy: () => boolean): void {
      const current = station.mode();
      if (current === mode) return;
      const busy = BUSY[current];
      const stranded = busy ? ctx.requests.byStates(busy.type, busy.states).length > 0 : auditBusy();
      if (stranded) {
        throw new AppError("invalid_state", `work in progress in ${current} mode`, [
          { path: "mode", message: `finish the ${current} work at the station first` },
        ]);
      }
      station.setMode(mode, tx.now);
      tx.announce("station", {});
      if (mode === "pick") bins.assignBins(tx);
    },

    /**
     * Sets the on-hand quantity of an item at a slot (an inventory adjustment by the dashboard; the spec
     * shows no stock endpoint). It may not go below what pick lines hold reserved there.
     */
    setStock(tx: Tx, input: { location: string; msu: string; itemId: number; quantity: number }): void {
      const loc = stock.location(input.location);
      if (loc && loc.msu !== input.msu) {
        throw new AppError("validation_failed", `slot '${input.location}' belongs to MSU '${loc.msu}'`, [
          { path: "msu", message: `expected '${loc.msu}'` },
        ]);
      }
      stock.upsertLocation(input.location, input.msu);
      const at = stock.stockAt(input.location, input.itemId);
      if (at && input.quantity < at.reserved) {
        throw new AppError("invalid_state", `${at.reserved} are reserved at '${input.location}'`, [
          { path: "quantity", message: `at least ${at.reserved}` },
        ]);
      }
      if (at) stock.setQuantity(input.location, input.itemId, input.quantity);
      else stock.add(input.location, input.itemId, input.quantity);
      tx.announce("station", {});
    },

    state(now: number, site: string) {
      const racks = stock.racks().map((r) => ({
        msu: r.msu,
        locations: stock.locationsOfMsu(r.msu),
        presentedAt: new Date(r.presentedAt).toISOString(),
      }));
      const active = ctx.requests.byStates("PICK", ["fulfillable", "cancellation_locked", "pick_started"]);
      return {
        site,
        ppsId: ctx.ppsId,
        mode: station.mode(),
        seats: station.seats().map((s) => ({
          seat: s.seat,
          user: s.userName,
          loggedInAt: s.loggedInAt === null ? null : new Date(s.loggedInAt).toISOString(),
        })),
        bins: station.bins().map((b) => ({
          ppsBinId: b.id,
          state: b.state,
          printState: b.printState,
          requests: ctx.requests
            .inBin(b.id)
            .map((r) => ({ type: r.type, externalServiceRequestId: r.externalId, state: r.state })),
        })),
        racks,
        pickQueue: orderWork(active.map(workOf), now).map((w) => ({
          externalServiceRequestId: w.id,
          state: w.row.state,
          priority: w.priority,
          ppsBinId: w.row.binId,
        })),
        heldBack: active
          .filter((r) => !orderWork([workOf(r)], now).length)
          .map((r) => ({
            externalServiceRequestId: r.externalId,
            pickAfter: new Date(r.pickAfter ?? 0).toISOString(),
          })),
        puts: ctx.requests.byStates("PUT", ["stage_requested", "staged", "complete"]).map((r) => ({
          externalServiceRequestId: r.externalId,
          state: r.state,
          ppsBinId: r.binId ?? parseJson<Record<string, unknown>>(r.executionJson)?.pps_bin_id ?? null,
        })),
        devices: devices(),
      };
    },
  };
}

export type StationService = ReturnType<typeof createStationService>;
