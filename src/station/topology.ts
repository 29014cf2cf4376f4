/**
 * The station's topology, built once from the station file (docs/architecture.md#the-station-model): which
 * seats and order bins the station has (the file's, or the config's for the embedded station), which
 * bin a device event belongs to (a light module's button, a DI module's input, a sensor channel; the
 * order bins and the IRT bin alike), which seat a scanner's scans are for (and which scanners a seat
 * has), and which light shows a bin. The one place these are worked out: device events carry only their
 * device, and the engine, the simulator by seat and the operator screen all ask here.
 * Light addresses come canonical from the station file, in the form the controllers report them.
 */

import type { BinDefinition, StationFile } from "../config/station-file.schema.js";
import type { DeviceEvent } from "../devices/hub.types.js";
import { type LoadedStation, stationError } from "../devices/station-file/station-file.js";
import type { FieldError } from "../domain/errors.js";

export interface LightRef {
  device: string;
  address: string;
}

export interface StationTopology {
  readonly seats: readonly string[];
  /** The order bins, in the file's order (the IRT bin is not one). */
  readonly bins: readonly string[];
  /** The IRT bin (station file `station.irtBin`): where items a pick or put exception removed go. */
  readonly irtBin: string | null;
  /** An order bin or the IRT bin as declared, or null. */
  bin(binId: string): BinDefinition | null;
  binLight(binId: string): LightRef | null;
  /** The bin a button or sensor event belongs to (order bin or IRT bin), or null when none claims it. */
  binOf(event: DeviceEvent): string | null;
  /** The bin whose light module this is, or null. */
  binOfLight(device: string, address: string): string | null;
  /** The seat of a scan: its scanner's (`devices[].seat`); a station with one seat takes every scan. */
  seatOf(scannerId: string): string | null;
  /** A seat's scanners, in the file's order: those `seatOf` gives the seat. */
  scannersOf(seat: string): readonly string[];
  /**
   * The seat whose bin this order bin is (docs/station.md#bins-of-a-seat): its `seat` in the station
   * file; on a one-seat station that seat; else null, a bin every seat shares (and the IRT bin).
   */
  seatOfBin(binId: string): string | null;
  /** A seat's own bins, in the file's order: those `seatOfBin` gives the seat. */
  binsOf(seat: string): readonly string[];
  /** A slot's own light, where the rack has one fitted. */
  slotLight(location: string): LightRef | null;
  /**
   * Where a refusal that concerns no bin is signalled (a scan at a seat with nothing lit): the IRT bin,
   * the station's own, where it has a light; else nowhere, never an order bin the refusal has nothing
   * to do with (docs/station.md#station-engine-scans-lights-and-buttons).
   */
  signalBin(): string | null;
  /** That bin's light. */
  signalLight(): LightRef | null;
  /** The pause input a sensor event is, with the seats it holds and its reason, or null (docs/station.md#pausing-a-seat). */
  pauseInputOf(event: DeviceEvent): PauseInput | null;
}

/** A configured pause input (station file `station.pauseInputs`), its seats resolved. */
export interface PauseInput {
  device: string;
  channel: string;
  seats: readonly string[];
  reason: string;
}

const key = (device: string, address: string) => `${device}\u0000${address}`;

/** Adds `k -> v` unless `k` is taken (the station-file checks refuse an input claimed by two bins). */
function claim(map: Map<string, string>, k: string, v: string): void {
  if (!map.has(k)) map.set(k, v);
}

export function createTopology(
  def: StationFile,
  slots: readonly { location: string; light: LightRef }[] = [],
): StationTopology {
  const { bins, irtBin, seats } = def.station;
  const all = irtBin ? [...bins, irtBin] : bins;
  const byId = new Map(all.map((b) => [b.id, b]));
  const byLight = new Map<string, string>();
  const byButton = new Map<string, string>();
  const bySensor = new Map<string, string>();
  for (const b of all) {
    if (b.light) claim(byLight, key(b.light.device, b.light.address), b.id);
    if (b.button) claim(byButton, key(b.button.device, b.button.channel), b.id);
    if (b.sensor) claim(bySensor, key(b.sensor.device, b.sensor.channel), b.id);
  }
  const seatOfScanner = new Map(def.devices.flatMap((d) => (d.seat ? [[d.id, d.seat] as const] : [])));
  const only = seats.length === 1 ? (seats[0] ?? null) : null;
  const seatOf = (scannerId: string) => seatOfScanner.get(scannerId) ?? only;
  const scanners = def.devices.filter((d) => d.kind === "scanner").map((d) => d.id);
  const bySlot = new Map(slots.map((s) => [s.location, s.light]));
  const signal = irtBin?.light ? irtBin : null;
  const binOfLight = (device: string, address: string) => byLight.get(key(device, address)) ?? null;
  const orderBins = new Map(bins.map((b) => [b.id, b]));
  const seatOfBin = (binId: string) => {
    const b = orderBins.get(binId);
    return b ? (b.seat ?? only) : null;
  };
  const pauses = new Map(
    (def.station.pauseInputs ?? []).map((p) => [
      key(p.device, p.channel),
      {
        device: p.device,
        channel: p.channel,
        seats: p.seats ?? seats,
        reason: p.reason ?? `${p.channel} is active`,
      },
    ]),
  );

  return {
    seats,
    bins: bins.map((b) => b.id),
    irtBin: irtBin?.id ?? null,
    bin: (binId) => byId.get(binId) ?? null,
    binLight: (binId) => byId.get(binId)?.light ?? null,
    binOf(e) {
      if (e.type === "scan") return null;
      if (e.type === "sensor") return bySensor.get(key(e.deviceId, e.channel)) ?? null;
      return binOfLight(e.deviceId, e.address) ?? byButton.get(key(e.deviceId, e.address)) ?? null;
    },
    binOfLight,
    seatOf,
    scannersOf: (seat) => scanners.filter((id) => seatOf(id) === seat),
    seatOfBin,
    binsOf: (seat) => bins.filter((b) => seatOfBin(b.id) === seat).map((b) => b.id),
    slotLight: (location) => bySlot.get(location) ?? null,
    signalBin: () => signal?.id ?? null,
    signalLight: () => signal?.light ?? null,
    pauseInputOf: (e) => (e.type === "sensor" ? (pauses.get(key(e.deviceId, e.channel)) ?? null) : null),
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The seats and order bins the station database is set up with. With a station file, its seats and
 * bins ARE the station's (config `station.seats` and `station.bins` only shape the embedded default); a
 * config that sets them to something else as well is refused rather than silently overridden, and so is
 * a file whose `site`/`ppsId` differ from the config's. `defaults` are the config's own defaults for
 * seats and bins (a value equal to them counts as "not set").
 */
export function stationSeatsAndBins(
  config: { site: string; ppsId: string; station: { seats: string[]; bins: string[] } },
  loaded: LoadedStation,
  defaults: { seats: readonly string[]; bins: readonly string[] },
): { seats: string[]; bins: string[] } {
  if (loaded.source === null) return { seats: config.station.seats, bins: config.station.bins };
  const file = loaded.source;
  const st = loaded.definition.station;
  const seats = st.seats;
  const bins = st.bins.map((b) => b.id);
  const clash: FieldError[] = [];
  if (st.site !== undefined && st.site !== config.site)
    clash.push({ path: "station.site", message: `is ${st.site}, the config's site is ${config.site}` });
  if (st.ppsId !== undefined && st.ppsId !== config.ppsId)
    clash.push({ path: "station.ppsId", message: `is ${st.ppsId}, the config's ppsId is ${config.ppsId}` });
  const { seats: cSeats, bins: cBins } = config.station;
  if (!sameList(cSeats, defaults.seats) && !sameList(cSeats, seats))
    clash.push({
      path: "station.seats",
      message: `differ from the config's station.seats (${cSeats.join(",")})`,
    });
  if (!sameList(cBins, defaults.bins) && !sameList(cBins, bins))
    clash.push({
      path: "station.bins",
      message: `differ from the config's station.bins (${cBins.join(",")})`,
    });
  if (clash.length > 0) throw stationError(file, clash);
  return { seats, bins };
}
