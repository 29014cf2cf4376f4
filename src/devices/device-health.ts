/**
 * Health of every declared device (connected, last seen, errors, last error): what `/station/state`,
 * the retained `state/station` and `/metrics` show, and the log lines a maintainer reads. The station is
 * told (`onChange`) when a device comes or goes, not on every byte.
 */
import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { DeviceStatus } from "./drivers/adapter.types.js";
import type { DeviceHealth } from "./hub.types.js";

interface Entry {
  health: DeviceHealth;
  lastSeenMs: number | null;
}

/** The devices' counters: the health book counts errors and reconnects, the hub events and lights. */
export function deviceCounters(metrics: Metrics) {
  return {
    errors: metrics.counter(
      "device_errors_total",
      "Device errors (bad frames, unanswered requests, disconnects), by device",
      ["device"],
    ),
    reconnects: metrics.counter("device_reconnects_total", "Reconnect attempts, by device", ["device"]),
    events: metrics.counter(
      "device_events_total",
      "Scans, button presses and sensor edges received, by device and type",
      ["device", "type"],
    ),
    lights: metrics.counter("device_lights_total", "Light commands sent, by device and outcome", [
      "device",
      "outcome",
    ]),
  };
}

export type DeviceCounters = ReturnType<typeof deviceCounters>;

export interface HealthBookOptions {
  /** Where the book's gauges are registered. */
  metrics: Metrics;
  counters: Pick<DeviceCounters, "errors" | "reconnects">;
  log: Logger;
  now(): number;
  onChange(): void;
  /** Every error report, e.g. for the operator screen; not an announcement. */
  onError?(deviceId: string, reason: string): void;
}

export class DeviceHealthBook {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly opts: HealthBookOptions) {
    const { metrics } = opts;
    metrics.gauge(
      "device_connected",
      "1 while the device is connected, by device and kind",
      ["device", "kind"],
      () =>
        [...this.entries.values()].map((e) => ({
          labels: { device: e.health.id, kind: e.health.kind },
          value: e.health.connected ? 1 : 0,
        })),
    );
    metrics.gauge(
      "device_last_seen_timestamp_seconds",
      "When the device last sent bytes (epoch seconds)",
      ["device"],
      () =>
        [...this.entries.values()]
          .filter((e) => e.lastSeenMs !== null)
          .map((e) => ({ labels: { device: e.health.id }, value: Math.floor((e.lastSeenMs ?? 0) / 1000) })),
    );
  }

  add(device: Pick<DeviceHealth, "id" | "kind" | "profile" | "transport">): DeviceStatus {
    const entry: Entry = {
      health: { ...device, connected: false, lastSeen: null, errors: 0, lastError: null },
      lastSeenMs: null,
    };
    this.entries.set(device.id, entry);
    const { log, counters, now, onChange, onError } = this.opts;
    const h = entry.health;
    const labels = { device: h.id };
    const ctx = { device: h.id, transport: h.transport };
    return {
      connected() {
        if (h.connected) return;
        h.connected = true;
        log.info(ctx, "device connected");
        onChange();
      },
      disconnected(reason) {
        const was = h.connected;
        const changed = h.lastError !== reason;
        h.connected = false;
        h.lastError = reason;
        if (was) {
          h.errors++;
          counters.errors.inc(labels);
          log.warn({ ...ctx, reason }, "device disconnected");
        } else if (changed) log.warn({ ...ctx, reason }, "device not available; retrying");
        if (was || changed) onChange();
      },
      seen() {
        entry.lastSeenMs = now();
      },
      error(reason) {
        h.errors++;
        counters.errors.inc(labels);
        if (h.lastError !== reason) log.warn({ ...ctx, reason }, "device error");
        else log.debug({ ...ctx, reason }, "device error");
        h.lastError = reason;
        onError?.(h.id, reason);
      },
      reconnecting() {
        counters.reconnects.inc(labels);
      },
    };
  }

  list(): DeviceHealth[] {
    return [...this.entries.values()].map((e) => ({
      ...e.health,
      lastSeen: e.lastSeenMs === null ? null : new Date(e.lastSeenMs).toISOString(),
    }));
  }
}
