import type { SeatRow } from "../../db/station.repo.js";
import { AppError } from "../../domain/errors.js";
import { theOneNamed } from "../../domain/item.identity.js";
import {
  type ItemRef,
  itemRefOf,
  type RackPresentedInput,
  type StationMode,
  type StockAdjustInput,
} from "../../domain/station.schema.js";
import { assignBins, lockAtPresentedRacks } from "../pick/pick.service.js";
import { withdrawAllStaging } from "../put/put.service.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import type { StationDeps } from "./station-deps.js";

/**
 * Seats, mode, racks and stock adjustments (docs/architecture.md#the-station-model,
 * docs/architecture.md#station-api).
 */

/** Work in progress that ties the station to its mode: switching away would strand it. */
const BUSY: Record<StationMode, { type: "PICK" | "PUT"; states: string[] } | null> = {
  pick: { type: "PICK", states: ["cancellation_locked", "pick_started"] },
  put: { type: "PUT", states: ["stage_requested", "staged"] },
  audit: null,
};

function mustSeat(deps: StationDeps, name: string): SeatRow {
  const s = deps.station.seat(name);
  if (!s) throw new AppError("not_found", `no seat '${name}'`, [{ path: "seat", message: "unknown seat" }]);
  return s;
}

export function login(deps: StationDeps, name: string, user: string, tx: Tx): void {
  const s = mustSeat(deps, name);
  if (s.userName && s.userName !== user) {
    throw new AppError("invalid_state", `seat '${name}' is taken by '${s.userName}'`, [
      { path: "seat", message: "log the other operator out first" },
    ]);
  }
  if (s.userName === user) return;
  deps.station.login(name, user, tx.now);
  tx.announce("station", {});
}

export function logout(deps: StationDeps, name: string, tx: Tx): void {
  if (mustSeat(deps, name).userName !== null) deps.sessionEnding?.(name);
  deps.station.login(name, null, null);
  tx.announce("station", {});
}

/**
 * Switching mode is refused while work of the current mode is in progress; pick mode gives out bins.
 * Leaving put mode is refused while totes stand in bins (docs/decisions.md "Leaving put mode with totes
 * in bins").
 */
export function setMode(deps: StationDeps, mode: StationMode, tx: Tx): void {
  const current = deps.station.mode();
  if (current === mode) return;
  if (current === "put") withdrawAllStaging(deps, tx);
  const busy = BUSY[current];
  const stranded = busy ? deps.requests.byStates(busy.type, busy.states).length > 0 : deps.auditRunning();
  if (stranded) {
    throw new AppError("invalid_state", `work in progress in ${current} mode`, [
      { path: "mode", message: `finish the ${current} work at the station first` },
    ]);
  }
  deps.station.setMode(mode, tx.now);
  tx.announce("station", {});
  if (mode === "pick") assignBins(deps, tx);
}

/** A rack (MSU face) reached the station: its slots are known, and requests with stock there lock. */
export function presentRack(deps: StationDeps, input: RackPresentedInput, tx: Tx): void {
  for (const l of input.locations) {
    const known = deps.stock.location(l);
    if (known && known.msu !== input.msu) {
      throw new AppError("validation_failed", `slot '${l}' belongs to MSU '${known.msu}'`, [
        { path: "locations", message: `'${l}' is a slot of MSU '${known.msu}'` },
      ]);
    }
    deps.stock.upsertLocation(l, input.msu);
  }
  deps.stock.presentRack(input.msu, tx.now);
  tx.announce("station", {});
  lockAtPresentedRacks(deps, tx, [input.msu]);
}

export function removeRack(deps: StationDeps, msu: string, tx: Tx): void {
  if (!deps.stock.removeRack(msu)) {
    throw new AppError("not_found", `rack '${msu}' is not at the station`, [
      { path: "msu", message: "not presented" },
    ]);
  }
  tx.announce("station", {});
}

/**
 * The item a station call names: its uid, or the values of a whole uniqueness group of it, never a
 * SKU shared by several (docs/decisions.md#item-identity). A 400 naming the field otherwise.
 */
function namedItem(deps: StationDeps, ref: ItemRef): number {
  if ("uid" in ref) {
    if (!deps.items.get(ref.uid))
      throw new AppError("validation_failed", `no item with uid ${ref.uid}`, [
        { path: ref.path, message: "unknown item" },
      ]);
    return ref.uid;
  }
  const what = JSON.stringify(ref.name);
  return theOneNamed(deps.items.named(ref.name), ref.path, what, deps.items.partlyNamed(ref.name)).id;
}

/**
 * Sets the on-hand quantity of an item at a slot (an inventory adjustment by the dashboard; the spec
 * shows no stock endpoint). It may not go below what pick lines hold reserved there.
 */
export function setStock(deps: StationDeps, adjust: StockAdjustInput, tx: Tx): void {
  const input = { ...adjust, itemId: namedItem(deps, itemRefOf(adjust)) };
  const loc = deps.stock.location(input.location);
  if (loc && loc.msu !== input.msu) {
    throw new AppError("validation_failed", `slot '${input.location}' belongs to MSU '${loc.msu}'`, [
      { path: "msu", message: `expected '${loc.msu}'` },
    ]);
  }
  deps.stock.upsertLocation(input.location, input.msu);
  const at = deps.stock.stockAt(input.location, input.itemId);
  if (at && input.quantity < at.reserved) {
    throw new AppError("invalid_state", `${at.reserved} are reserved at '${input.location}'`, [
      { path: "quantity", message: `at least ${at.reserved}` },
    ]);
  }
  if (at) deps.stock.setQuantity(input.location, input.itemId, input.quantity);
  else deps.stock.add(input.location, input.itemId, input.quantity);
  tx.announce("station", {});
}
