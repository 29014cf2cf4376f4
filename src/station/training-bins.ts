/**
 * Which station a bin's light, button and beam belong to while seats train (docs/station.md#bins-of-a-seat):
 * a bin of a seat in training (the station file's `bins[].seat`; on a one-seat station every bin is that
 * seat's) follows the seat to the training station; a shared bin, the IRT bin and a bin of a seat at work
 * stay the station's. Pure: the training seats are passed in.
 */
import type { DeviceEvent, LightCommand } from "../devices/hub.types.js";
import type { StationTopology } from "./topology.js";

type Wiring = Pick<StationTopology, "seatOfBin" | "binOf" | "binOfLight" | "pauseInputOf">;

/** The training seat whose bin this is, or null when the bin's devices are the station's. */
export function trainingSeatOfBin(
  topology: Pick<StationTopology, "seatOfBin">,
  training: ReadonlySet<string>,
  binId: string,
): string | null {
  const seat = topology.seatOfBin(binId);
  return seat !== null && training.has(seat) ? seat : null;
}

/** A bin input as the training station's simulated devices take it (by bin). */
export type TrainingInput =
  | { kind: "press"; seat: string; binId: string; button: "confirm" | "shortage" }
  /** a presence beam or a DI button input, which the engine takes alike (device-input.ts) */
  | { kind: "beam"; seat: string; binId: string; active: boolean };

/**
 * Where a button or sensor event of the station's devices goes: null, the station's engine; else the
 * training station's input on the same bin. Scans are the scanner's seat's (training.part.ts); a pause
 * input stays the station's.
 */
export function trainingInputOf(
  topology: Wiring,
  training: ReadonlySet<string>,
  e: DeviceEvent,
): TrainingInput | null {
  if (e.type === "scan" || training.size === 0 || topology.pauseInputOf(e) !== null) return null;
  const binId = topology.binOf(e);
  if (binId === null) return null;
  const seat = trainingSeatOfBin(topology, training, binId);
  if (seat === null) return null;
  if (e.type === "button") return { kind: "press", seat, binId, button: e.button };
  return { kind: "beam", seat, binId, active: e.active };
}

/** The bin a light command of the station is for when that bin follows a seat in training, else null. */
export function trainingBinOfLight(
  topology: Wiring,
  training: ReadonlySet<string>,
  command: Pick<LightCommand, "deviceId" | "address">,
): string | null {
  if (training.size === 0) return null;
  const binId = topology.binOfLight(command.deviceId, command.address);
  return binId !== null && trainingSeatOfBin(topology, training, binId) !== null ? binId : null;
}
