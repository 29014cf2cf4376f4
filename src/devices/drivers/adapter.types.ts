/**
 * What the hub gives each device adapter and what it expects back. Adapters are thin shells: they open
 * the port, socket or HID device, feed bytes to the pure codecs and report what happened here. They
 * never throw out of the event loop: every IO failure becomes a status report and a retry.
 */
import type { Logger } from "pino";
import type { DeviceEvent, LightCommand } from "../hub.types.js";

/** One device's health, as the adapter sees it (device-health.ts keeps the figures). */
export interface DeviceStatus {
  connected(): void;
  /** The link is down (or the device stopped answering); `reason` is for people. */
  disconnected(reason: string): void;
  /** Bytes or a report arrived. */
  seen(): void;
  /** A bad frame, a refused command, an unanswered request: counted, the link stays up. */
  error(reason: string): void;
  reconnecting(): void;
}

export interface AdapterContext {
  deviceId: string;
  status: DeviceStatus;
  emit(event: DeviceEvent): void;
  /** Epoch ms; injected so tests and the simulator share the agent's clock. */
  now(): number;
  log: Logger;
}

export interface DeviceAdapter {
  /** Begins connecting and returns at once; an absent device is retried, never thrown. */
  start(): void;
  stop(): Promise<void>;
  /** Light controllers only. Rejects with DeviceUnavailableError while the device is not connected. */
  light?(command: LightCommand): Promise<void>;
}

/**
 * A light command could not be written because its device is down. The adapter keeps the wanted state
 * and sends it again once the device is back, so a light is not lost across an unplug.
 */
export class DeviceUnavailableError extends Error {
  readonly code = "device_unavailable";
  constructor(
    readonly deviceId: string,
    reason: string,
  ) {
    super(`device ${deviceId} is not available: ${reason}`);
    this.name = "DeviceUnavailableError";
  }
}

export function isDeviceUnavailable(e: unknown): e is DeviceUnavailableError {
  return e instanceof DeviceUnavailableError;
}

/**
 * The agent's own fallbacks when a profile has no `timing` (every shipped profile states its own);
 * these are safety limits, not device facts.
 */
export const FALLBACK_TIMING = { responseTimeoutMs: 500, retries: 1, pollIntervalMs: 100 } as const;
