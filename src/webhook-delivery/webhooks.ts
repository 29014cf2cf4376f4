/**
 * Webhook delivery, the second path fed by the outbox beside MQTT (docs/webhooks.md). One loop per
 * enabled endpoint (endpoint-delivery.ts), each on its own cursor; commits wake them all. An admin change
 * (services/webhooks/) bumps the endpoint's revision: the loop of that endpoint is stopped and started
 * again from the database, at once when the change was made in this process, within POLL_MS when the
 * command line made it. Construction does nothing; `start()` reads the endpoints, `stop()` ends every
 * loop (an attempt under way is cut off and sent again later).
 */
import type { Logger } from "pino";
import { readPem } from "../config/certificate-files.js";
import type { WebhooksConfig } from "../config/webhooks.schema.js";
import type { OutboxRepo } from "../db/outbox.repo.js";
import type { WebhooksRepo } from "../db/webhooks.repo.js";
import type { SecurityEventInput } from "../domain/security-event.js";
import type { Outcome } from "../domain/webhook-delivery.js";
import type { EventBus } from "../events.js";
import type { Metrics } from "../metrics.js";
import { createEndpointDelivery, type EndpointDelivery } from "./endpoint-delivery.js";
import { createSender, type SenderOptions } from "./sender.js";
import { endpointHealth, registerWebhookMetrics, webhooksCheck } from "./webhook-health.js";

export interface WebhookDeliveryDeps {
  config: WebhooksConfig;
  /** The agent's own HTTP port (docs/webhooks.md#safety). */
  selfPort: number;
  repo: WebhooksRepo;
  outbox: Pick<OutboxRepo, "forWebhook" | "lastSeq" | "oldestForWebhook">;
  bus: EventBus;
  metrics: Metrics;
  /** The security event log: an endpoint disabled by the delivery is an event. */
  record(e: SecurityEventInput): void;
  log: Logger;
  now(): number;
}

/** A change made by another process (the command line) is seen within this. */
const POLL_MS = 1000;
const OWNER = "webhooks";

type Tls = NonNullable<SenderOptions["tls"]>;

/** A configured TLS file, or none (config/certificate-files.ts reads it and names the key when it cannot). */
function readPemIfSet(file: string | undefined, key: string): Buffer | undefined {
  return file === undefined ? undefined : readPem(file, key);
}

/** Each endpoint's TLS files, read once at start; endpoints added by admins use `webhooks.caFile`. */
function readTls(config: WebhooksConfig): { shared: Tls; byId: Map<string, Tls> } {
  const ca = readPemIfSet(config.caFile, "webhooks.caFile");
  const byId = new Map<string, Tls>();
  for (const e of config.endpoints ?? []) {
    const at = `webhooks.endpoints.${e.id}`;
    byId.set(e.id, {
      ca: readPemIfSet(e.caFile, `${at}.caFile`) ?? ca,
      cert: readPemIfSet(e.certFile, `${at}.certFile`),
      key: readPemIfSet(e.keyFile, `${at}.keyFile`),
    });
  }
  return { shared: { ca }, byId };
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { config, repo, log } = deps;
  const running = new Map<string, { delivery: EndpointDelivery; revision: number; close(): void }>();
  let tls: ReturnType<typeof readTls> | undefined;
  let poll: NodeJS.Timeout | undefined;
  let started = false;
  const health = () =>
    endpointHealth({ repo, outbox: deps.outbox, live: (id) => running.get(id)?.delivery, now: deps.now });
  const counters = registerWebhookMetrics(deps.metrics, health);

  function disabled(id: string, reason: "gone" | "horizon", seq: number, outcome: Outcome): void {
    counters.disabled.inc({ endpoint: id, reason });
    const why = reason === "gone" ? "answered 410 Gone" : `failing for ${config.horizonHours} h`;
    log.error(
      { endpoint: id, reason, seq, outcome: outcome.kind === "answered" ? outcome.status : outcome.kind },
      `webhook: endpoint disabled (${why}); its cursor is kept: enable it again to go on (docs/webhooks.md#disabled-endpoints)`,
    );
    deps.record({ kind: "webhook_disabled", channel: "webhook", detail: { endpoint: id, reason, seq } });
  }

  function launch(id: string, revision: number): void {
    const row = repo.get(id);
    if (row?.enabled !== 1) return;
    const sender = createSender({
      url: row.url,
      secret: row.secret,
      timeoutMs: config.timeoutMs,
      allow: config.allow,
      selfPort: deps.selfPort,
      tls: tls?.byId.get(id) ?? tls?.shared,
      now: deps.now,
    });
    const delivery = createEndpointDelivery({
      id,
      repo,
      outbox: deps.outbox,
      sender,
      policy: {
        minMs: config.retryMinMs,
        maxMs: config.retryMaxMs,
        horizonMs: config.horizonHours * 3_600_000,
      },
      maxBodyBytes: config.maxBodyBytes,
      now: deps.now,
      log,
      onDelivered: (_r, ms) => {
        counters.delivered.inc({ endpoint: id });
        counters.latency.observe({ endpoint: id }, ms / 1000);
      },
      onFailed: (reason, retry) => {
        counters.failed.inc({ endpoint: id, reason });
        if (retry) counters.retried.inc({ endpoint: id });
      },
      onDisabled: (reason, r, outcome) => disabled(id, reason, r.seq, outcome),
    });
    running.set(id, { delivery, revision, close: () => sender.close() });
    delivery.start();
  }

  async function halt(id: string): Promise<void> {
    const r = running.get(id);
    if (!r) return;
    running.delete(id);
    await r.delivery.stop();
    r.close();
  }

  /** Starts, stops or restarts the loops whose endpoint changed since last looked at. */
  let reconciling: Promise<void> = Promise.resolve();
  function reconcile(): Promise<void> {
    reconciling = reconciling.then(async () => {
      if (!started) return;
      const now = new Map(repo.revisions().map((r) => [r.id, r.revision]));
      for (const [id, r] of [...running]) if (now.get(id) !== r.revision) await halt(id);
      for (const [id, revision] of now) if (!running.has(id) && started) launch(id, revision);
    });
    return reconciling;
  }

  return {
    start(): Promise<void> {
      tls = readTls(config);
      started = true;
      deps.bus.on(OWNER, "outbox", () => {
        for (const r of running.values()) r.delivery.wake();
      });
      poll = setInterval(() => {
        reconcile().catch((err: unknown) => log.error({ err }, "webhook: could not read the endpoints"));
      }, POLL_MS);
      poll.unref();
      return reconcile();
    },
    async stop(): Promise<void> {
      started = false;
      if (poll) clearInterval(poll);
      deps.bus.off(OWNER);
      await reconciling;
      await Promise.all([...running.keys()].map(halt));
    },
    /** An admin changed an endpoint in this process: its loop is restarted now. */
    changed: (): Promise<void> => reconcile(),
    readiness: () => webhooksCheck(health),
    health,
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
