/**
 * The seam between the device layer and the station engine (docs/architecture.md#layers): adapters turn bytes into
 * `DeviceEvent`s and `LightCommand`s into bytes; the engine sees only these shapes. Every adapter,
 * real or simulated, speaks them, so the engine cannot tell a pseudo-terminal from a desk.
 */

import type { DeviceKind } from "../domain/device-kinds.js";

/** Something an operator or a sensor did. `at` is the epoch ms the adapter received the last byte. */
export type DeviceEvent =
  | {
      type: "scan";
      /** The scanner; its seat is the station topology's to tell (station/topology.ts). */
      deviceId: string;
      /** The scanned text, prefix/suffix and AIM identifier stripped. */
      value: string;
      /** Symbology from the AIM identifier or vendor code, when the device tells it. */
      symbology?: string;
      /** GS1 element strings by AI, when the scan is GS1. */
      gs1?: Record<string, string>;
      at: number;
    }
  | { type: "button"; deviceId: string; address: string; button: "confirm" | "shortage"; at: number }
  | { type: "sensor"; deviceId: string; channel: string; active: boolean; at: number };

export type LightColor = "green" | "red" | "yellow" | "blue" | "orange" | "pink" | "cyan";

/** What a light module (or display) at `address` of light device `deviceId` should show. */
export interface LightCommand {
  deviceId: string;
  address: string;
  /** `show`: lit (with a quantity where the module has digits); `off`; `error`: a refused scan. */
  mode: "show" | "off" | "error";
  quantity?: number;
  color?: LightColor;
  blink?: boolean;
}

export interface DeviceHealth {
  id: string;
  kind: DeviceKind;
  profile: string;
  /** A readable transport: serial path, `tcp://host:port`, `hid vid:pid`, `sim`. */
  transport: string;
  connected: boolean;
  /** ISO 8601 of the last byte or report received, or null. */
  lastSeen: string | null;
  errors: number;
  lastError: string | null;
}

export interface DeviceHub {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Subscribe to device events; `owner` lets a part drop its handlers on stop. */
  onEvent(owner: string, handler: (event: DeviceEvent) => void): void;
  off(owner: string): void;
  /**
   * Sends a light command; resolves once its bytes are written (not when the module acknowledges).
   * Rejects while the controller is down (`code: "device_unavailable"`); the hub keeps the wanted
   * state and shows it again when the controller is back.
   */
  light(command: LightCommand): Promise<void>;
  health(): DeviceHealth[];
}
