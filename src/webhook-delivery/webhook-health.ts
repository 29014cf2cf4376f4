/**
 * What the webhook delivery reports (docs/webhooks.md#observability): per endpoint, delivered, failed
 * and retried attempts, lag (age of the oldest notification it still wants), last status and whether it
 * is enabled, in /metrics; and one /readyz check whose detail says the same in words. A dead endpoint
 * never makes the agent unready (like a lost broker link: the station keeps working); its alarm is the
 * `webhook_enabled` gauge at 0, the error log line and the `webhook_disabled` security event.
 */
import type { OutboxRepo } from "../db/outbox.repo.js";
import type { WebhookRow, WebhooksRepo } from "../db/webhooks.repo.js";
import type { Metrics } from "../metrics.js";

/** What a running endpoint knows better than the database: where it reads, its last answer. */
export interface LiveEndpoint {
  after(): number | undefined;
  lastStatus(): number | null;
}

export interface HealthDeps {
  repo: Pick<WebhooksRepo, "list">;
  outbox: Pick<OutboxRepo, "oldestForWebhook">;
  live(id: string): LiveEndpoint | undefined;
  now(): number;
}

/** One endpoint at a glance. */
export interface EndpointHealth {
  id: string;
  enabled: boolean;
  disabledReason: string | null;
  deliveredSeq: number;
  lagSeconds: number;
  lastStatus: number | null;
  lastError: string | null;
  attempts: number;
}

export function endpointHealth(deps: HealthDeps): EndpointHealth[] {
  const now = deps.now();
  return deps.repo.list().map((r: WebhookRow) => {
    const live = deps.live(r.id);
    const after = Math.max(live?.after() ?? r.deliveredSeq, r.deliveredSeq);
    const oldest = deps.outbox.oldestForWebhook(after, r.types);
    return {
      id: r.id,
      enabled: r.enabled === 1,
      disabledReason: r.disabledReason,
      deliveredSeq: after,
      lagSeconds: oldest === undefined ? 0 : Math.max(0, Math.round((now - oldest) / 1000)),
      lastStatus: live?.lastStatus() ?? r.lastStatus,
      lastError: r.lastError,
      attempts: r.attempts,
    };
  });
}

export function registerWebhookMetrics(metrics: Metrics, health: () => EndpointHealth[]) {
  const perEndpoint = (name: string, help: string, value: (h: EndpointHealth) => number) =>
    metrics.gauge(name, help, ["endpoint"], () =>
      health().map((h) => ({ labels: { endpoint: h.id }, value: value(h) })),
    );
  perEndpoint("webhook_enabled", "1 while the webhook endpoint is enabled; 0 once disabled", (h) =>
    h.enabled ? 1 : 0,
  );
  perEndpoint(
    "webhook_lag_seconds",
    "Age of the oldest notification the endpoint wants and has not had answered 2xx",
    (h) => h.lagSeconds,
  );
  perEndpoint(
    "webhook_last_status",
    "HTTP status of the endpoint's last answer (0: none, a timeout or a connection error)",
    (h) => h.lastStatus ?? 0,
  );
  perEndpoint(
    "webhook_delivered_seq",
    "Every notification up to this seq it wants was delivered",
    (h) => h.deliveredSeq,
  );
  return {
    delivered: metrics.counter("webhook_delivered_total", "Notifications answered 2xx, by endpoint", [
      "endpoint",
    ]),
    failed: metrics.counter(
      "webhook_failed_total",
      "Failed attempts, by endpoint and reason (HTTP status, timeout, network, refused)",
      ["endpoint", "reason"],
    ),
    retried: metrics.counter("webhook_retried_total", "Failed attempts that will be tried again", [
      "endpoint",
    ]),
    disabled: metrics.counter("webhook_disabled_total", "Endpoints disabled by the delivery, by reason", [
      "endpoint",
      "reason",
    ]),
    latency: metrics.histogram(
      "webhook_delivery_seconds",
      "From a notification's commit to its 2xx answer",
      ["endpoint"],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600],
    ),
  };
}

export type WebhookCounters = ReturnType<typeof registerWebhookMetrics>;

/** One line per endpoint for /readyz, `pps-edge status` and `diag`. */
export function healthLine(h: EndpointHealth): string {
  const state = h.enabled ? "enabled" : `DISABLED (${h.disabledReason ?? "?"})`;
  const failing = h.attempts > 0 ? `, failing: ${h.attempts} attempts, ${h.lastError ?? h.lastStatus}` : "";
  return `${h.id} ${state}: delivered to seq ${h.deliveredSeq}, lag ${h.lagSeconds} s, last status ${h.lastStatus ?? "-"}${failing}`;
}

export function webhooksCheck(health: () => EndpointHealth[]) {
  return {
    name: "webhooks",
    check: () => {
      const all = health();
      if (all.length === 0) return { ok: true, detail: "no endpoints" };
      return { ok: true, detail: all.map(healthLine).join("; ") };
    },
  };
}
