import type { PickDeps } from "../pick/pick.service.js";

/** What the station use cases read and write: the pick dependencies (bins, racks) and a few more. */
export interface StationDeps extends PickDeps {
  /** Whether an audit is being counted (it ties the station to audit mode). */
  auditRunning: () => boolean;
  /**
   * Health of the station's devices, shown with the state so a maintainer sees what is unplugged. Its
   * shape is the device hub's; the station only passes it on.
   */
  devices: () => readonly unknown[];
  /** The seats a pause holds (docs/station.md#pausing-a-seat): shown with each seat; none when absent. */
  pausedSeats?: () => ReadonlySet<string>;
  /** In a logout's transaction: the ending session summed up with it (docs/mqtt.md#session-summaries). */
  sessionEnding?: (seat: string) => void;
}
