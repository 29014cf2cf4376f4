import { parseJson } from "../request-record/request-record.js";
import { pickQueue } from "../work-order/work-order.service.js";
import type { StationDeps } from "./station-deps.js";

/** The station as GET /station/state and the operator screen show it (docs/architecture.md#station-api). */
export function stationState(deps: StationDeps, now: number, site: string) {
  const { requests, station, stock } = deps;
  const racks = stock.racks().map((r) => ({
    msu: r.msu,
    locations: stock.locationsOfMsu(r.msu),
    presentedAt: new Date(r.presentedAt).toISOString(),
  }));
  const picks = pickQueue(deps, now);
  const paused = deps.pausedSeats?.() ?? new Set<string>();
  return {
    site,
    ppsId: deps.ppsId,
    mode: station.mode(),
    seats: station.seats().map((s) => ({
      seat: s.seat,
      user: s.userName,
      loggedInAt: s.loggedInAt === null ? null : new Date(s.loggedInAt).toISOString(),
      paused: paused.has(s.seat),
    })),
    bins: station.bins().map((b) => ({
      ppsBinId: b.id,
      state: b.state,
      printState: b.printState,
      requests: requests
        .inBin(b.id)
        .map((r) => ({ type: r.type, externalServiceRequestId: r.externalId, state: r.state })),
    })),
    racks,
    pickQueue: picks.queue,
    heldBack: picks.heldBack,
    puts: requests.byStates("PUT", ["stage_requested", "staged", "complete"]).map((r) => ({
      externalServiceRequestId: r.externalId,
      state: r.state,
      ppsBinId: r.binId ?? parseJson<Record<string, unknown>>(r.executionJson)?.pps_bin_id ?? null,
    })),
    devices: deps.devices(),
  };
}
