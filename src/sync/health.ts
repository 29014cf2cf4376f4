import type { Metrics } from "../metrics.js";
import type { Connection } from "./connection.js";
import type { OutboxMonitor } from "./outbox-monitor.js";
import { redact } from "./redact.js";

/**
 * The sync's metrics (issue: "/readyz, /metrics and the log report [the outbox's] depth and age long
 * before it fills"). Counters are incremented by the sync; gauges are read when scraped.
 */
export function registerMetrics(metrics: Metrics, monitor: OutboxMonitor, connected: () => boolean) {
  const gauge = (name: string, help: string, read: () => number) =>
    metrics.gauge(name, help, [], () => [{ labels: {}, value: read() }]);
  gauge(
    "outbox_undelivered",
    "Notifications committed and not yet acknowledged by the broker",
    () => monitor.health().undelivered,
  );
  gauge(
    "outbox_oldest_undelivered_age_seconds",
    "Age of the oldest undelivered notification",
    () => monitor.health().oldestAgeSeconds,
  );
  gauge("outbox_dead", "Notifications moved aside to outbox_dead", () => monitor.health().dead);
  gauge("mqtt_connected", "1 while connected to the broker", () => (connected() ? 1 : 0));
  return {
    published: metrics.counter("mqtt_published_total", "Notifications acknowledged by the broker (PUBACK)"),
    refused: metrics.counter(
      "mqtt_refused_total",
      "Notifications refused for good and moved aside, by reason",
      ["reason"],
    ),
    reconnects: metrics.counter(
      "mqtt_reconnects_total",
      "Reconnect attempts after a lost or failed connection",
    ),
    requests: metrics.counter("mqtt_requests_total", "Requests received over MQTT, by name and outcome", [
      "name",
      "outcome",
    ]),
  };
}

export type LinkReport =
  | { off: true }
  | {
      off?: undefined;
      failure: string | undefined;
      url: string;
      status:
        | Pick<ReturnType<Connection["status"]>, "connected" | "session" | "requests" | "lastError">
        | undefined;
    };

/**
 * `outbox` fails from the warning depth or age; `mqtt` names the broker and the link's state and fails
 * only when the sync could not start at all (a lost link alone: the station keeps working offline).
 */
export function readinessChecks(monitor: OutboxMonitor, link: () => LinkReport) {
  return [
    {
      name: "outbox",
      check: () => {
        const h = monitor.health();
        return {
          ok: h.ok,
          detail: `${h.undelivered} undelivered, oldest ${h.oldestAgeSeconds} s, ${h.dead} moved aside`,
        };
      },
    },
    {
      name: "mqtt",
      check: () => {
        const r = link();
        if (r.off) return { ok: true, detail: "off" };
        if (r.failure) return { ok: false, detail: r.failure };
        // requests: whether central's requests can arrive (pending until the SUBACK; connection.ts)
        const state = r.status?.connected
          ? `connected (session ${r.status.session}, requests ${r.status.requests})`
          : `disconnected${r.status?.lastError ? `: ${r.status.lastError}` : ""}`;
        return { ok: true, detail: `${redact(r.url)} ${state}` };
      },
    },
  ];
}
