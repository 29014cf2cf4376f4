/**
 * A training seat's own bins follow it (docs/station.md#bins-of-a-seat): while the seat trains, the
 * station's engine no longer lights them (its commands are kept, not sent), the training station's
 * commands for those bins are sent to the real lights, and their buttons and beams go to the training
 * station. When the seat leaves, what the station's engine last wanted on each of those lights is written
 * back. Which station a bin's devices belong to is decided by station/training-bins.ts; this is the shell
 * that sends the commands.
 */
import type { Logger } from "pino";
import type { DeviceEvent, DeviceHub, LightCommand } from "../devices/hub.types.js";
import type { LightRef, StationTopology } from "../station/topology.js";
import {
  type TrainingInput,
  trainingBinOfLight,
  trainingInputOf,
  trainingSeatOfBin,
} from "../station/training-bins.js";

const keyOf = (device: string, address: string) => `${device}\u0000${address}`;
const off = (light: LightRef): LightCommand => ({
  deviceId: light.device,
  address: light.address,
  mode: "off",
});

export function createTrainingDevices(deps: {
  /** the station's own hub, unwrapped */
  hub: Pick<DeviceHub, "light">;
  topology: StationTopology;
  /** the seats in training now */
  seats: () => ReadonlySet<string>;
  /** A seat's bins are free for orders again (a seat left training): waiting orders may get them. */
  binsFreed?: (() => void) | undefined;
  log: Logger;
}) {
  const { topology, log } = deps;
  /** the station engine's last command per light (an error flash is not a state: it is not kept) */
  const real = new Map<string, LightCommand>();
  /** the training station's last command per bin */
  const practice = new Map<string, LightCommand>();

  function send(cmd: LightCommand): void {
    deps.hub.light(cmd).catch((err: unknown) => {
      log.warn({ err, light: { device: cmd.deviceId, address: cmd.address } }, "light command failed");
    });
  }

  /** The training's state of a bin on the bin's real light. */
  function showPractice(binId: string): void {
    const light = topology.binLight(binId);
    if (!light) return;
    const cmd = practice.get(binId);
    send(cmd ? { ...cmd, deviceId: light.device, address: light.address } : off(light));
  }

  return {
    /**
     * A light command of the station's engine: kept, and true when it is held back because its bin
     * follows a seat in training.
     */
    hold(cmd: LightCommand): boolean {
      if (cmd.mode !== "error") real.set(keyOf(cmd.deviceId, cmd.address), cmd);
      return trainingBinOfLight(topology, deps.seats(), cmd) !== null;
    },
    /** A light command of the training station for `binId`: onto the real light when the bin follows its seat. */
    practised(binId: string, cmd: LightCommand): void {
      if (cmd.mode !== "error") practice.set(binId, cmd);
      if (trainingSeatOfBin(topology, deps.seats(), binId) !== null) {
        const light = topology.binLight(binId);
        if (light) send({ ...cmd, deviceId: light.device, address: light.address });
      }
    },
    /** Passes a button or beam of the station's devices that belongs to the training station to `to`: true when it did. */
    divert(e: DeviceEvent, to: (input: TrainingInput) => void): boolean {
      const input = trainingInputOf(topology, deps.seats(), e);
      if (input === null) return false;
      to(input);
      return true;
    },
    /** The seat entered training: its bins' lights show the training's. */
    entered(seat: string): void {
      for (const binId of topology.binsOf(seat)) showPractice(binId);
    },
    /** The seat left training: its bins' lights show the station's again, and orders may get them. */
    left(seat: string): void {
      for (const binId of topology.binsOf(seat)) {
        const light = topology.binLight(binId);
        if (light) send(real.get(keyOf(light.device, light.address)) ?? off(light));
      }
      try {
        deps.binsFreed?.();
      } catch (err) {
        log.error({ err, seat }, "giving the bins of a seat out of training to waiting orders failed");
      }
    },
    /** The bins no order of the station is given now: those of the seats in training. */
    held(): ReadonlySet<string> {
      return new Set([...deps.seats()].flatMap((seat) => topology.binsOf(seat)));
    },
    /** The training station closes (a start over): what it lit is gone with it. */
    closing(): void {
      practice.clear();
    },
    /** The training station opened: the training seats' bins show what it lit, else nothing. */
    opened(): void {
      for (const seat of deps.seats()) for (const binId of topology.binsOf(seat)) showPractice(binId);
    },
  };
}

export type TrainingDevices = ReturnType<typeof createTrainingDevices>;
