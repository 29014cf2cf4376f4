/**
 * Webhook endpoints for admins (docs/webhooks.md#endpoints): listing, adding, changing, removing,
 * enabling again and replaying a range. The admin API and `pps-edge webhooks` are thin shells over this
 * door; the config file's endpoints are written through it at every start (`applyConfig`). Every change
 * is one transaction and bumps the endpoint's revision: the running delivery (webhook-delivery/) picks it up at
 * once when told (`onChange`), or within a second when another process made it.
 */
import { randomBytes } from "node:crypto";
import type { OutboxRepo } from "../../db/outbox.repo.js";
import type { WebhookRow, WebhooksRepo } from "../../db/webhooks.repo.js";
import { AppError, fieldError } from "../../domain/errors.js";
import type { SecurityEventInput } from "../../domain/security-event.js";
import { validate } from "../../domain/validate.js";
import { refusedUrl, type UrlRules } from "../../domain/webhook-address.js";
import {
  type WebhookCreate,
  type WebhookPatch,
  type WebhookReplay,
  webhookCreateSchema,
  webhookPatchSchema,
  webhookReplaySchema,
} from "../../domain/webhook-endpoint.schema.js";
import { applyConfigEndpoints, type ConfiguredEndpoint, typesJson } from "./config-endpoints.js";

/** An endpoint as admins see it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  types: string[] | null;
  enabled: boolean;
  /** `gone` (410), `horizon`, `admin` or `config`, while disabled. */
  disabledReason: string | null;
  disabledAt: string | null;
  source: "config" | "admin";
  /** Every notification up to this seq that it wants was answered 2xx. */
  deliveredSeq: number;
  /** Failed attempts at its oldest undelivered notification, and since when it fails. */
  attempts: number;
  failingSince: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  lastDeliveredAt: string | null;
  /** A replay under way: the next seq it sends again and the last. */
  replay: { next: number; to: number } | null;
}

/** An endpoint the config file declares (config/webhooks.schema.ts), as far as this door needs it. */

export interface WebhooksDeps {
  repo: WebhooksRepo;
  outbox: Pick<OutboxRepo, "lastSeq" | "firstSeq">;
  /** One IMMEDIATE transaction: the agent's unit of work, or the command line's own. */
  transaction<T>(fn: () => T): T;
  rules: UrlRules;
  now(): number;
  /** Where changes are recorded (the security event log), with the channel of the caller. */
  record?: (e: SecurityEventInput) => void;
}

export type Caller = { channel: "http" | "cli"; username?: string | undefined };

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function webhookView(r: WebhookRow): WebhookView {
  return {
    id: r.id,
    url: r.url,
    types: r.types === null ? null : (JSON.parse(r.types) as string[]),
    enabled: r.enabled === 1,
    disabledReason: r.disabledReason,
    disabledAt: iso(r.disabledAt),
    source: r.source === "config" ? "config" : "admin",
    deliveredSeq: r.deliveredSeq,
    attempts: r.attempts,
    failingSince: iso(r.failingSince),
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    lastAttemptAt: iso(r.lastAttemptAt),
    lastDeliveredAt: iso(r.lastDeliveredAt),
    replay: r.replayNext !== null && r.replayTo !== null ? { next: r.replayNext, to: r.replayTo } : null,
  };
}

/** A new Standard Webhooks secret: 32 random bytes. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function createWebhooks(deps: WebhooksDeps) {
  const { repo } = deps;
  let onChange: ((id: string) => void) | undefined;

  function mustGet(id: string): WebhookRow {
    const row = repo.get(id);
    if (!row)
      throw new AppError("not_found", `no webhook endpoint '${id}'`, [{ path: "id", message: "unknown" }]);
    return row;
  }
  function checkUrl(url: string): void {
    const why = refusedUrl(url, deps.rules);
    if (why) throw fieldError("url", why, "webhook_url_refused");
  }
  function changed(id: string, action: string, caller: Caller | undefined): void {
    if (caller) deps.record?.({ kind: "webhook_changed", ...caller, detail: { endpoint: id, action } });
    onChange?.(id);
  }
  function ownedByAdmin(row: WebhookRow, what: string): void {
    if (row.source === "config")
      throw new AppError(
        "webhook_in_config",
        `webhook endpoint '${row.id}' is declared in the config file: ${what} it there`,
        [{ path: "id", message: "declared in the config file" }],
      );
  }

  return {
    list: (): WebhookView[] => repo.list().map(webhookView),
    get: (id: string): WebhookView => webhookView(mustGet(id)),
    /** Adds an endpoint; it receives what is committed from now on. A generated secret is returned once. */
    create(input: unknown, caller?: Caller): { endpoint: WebhookView; secret?: string } {
      const e: WebhookCreate = validate(webhookCreateSchema, input);
      checkUrl(e.url);
      const secret = e.secret ?? generateSecret();
      deps.transaction(() => {
        if (repo.get(e.id))
          throw new AppError("webhook_exists", `webhook endpoint '${e.id}' exists`, [
            { path: "id", message: "exists" },
          ]);
        const endpoint = {
          id: e.id,
          url: e.url,
          types: typesJson(e.types),
          secret,
          enabled: e.enabled ?? true,
        };
        repo.insert({ ...endpoint, source: "admin" }, deps.outbox.lastSeq(), deps.now());
      });
      changed(e.id, "added", caller);
      return { endpoint: webhookView(mustGet(e.id)), ...(e.secret ? {} : { secret }) };
    },
    /** Changes what is named (URL, types, secret) of an endpoint an admin added; its cursor stays. */
    update(id: string, input: unknown, caller?: Caller): WebhookView {
      const p: WebhookPatch = validate(webhookPatchSchema, input);
      if (p.url !== undefined) checkUrl(p.url);
      deps.transaction(() => {
        const row = mustGet(id);
        ownedByAdmin(row, "change");
        repo.update(
          {
            id,
            url: p.url ?? row.url,
            types: p.types === undefined ? row.types : typesJson(p.types),
            secret: p.secret ?? row.secret,
            source: "admin",
          },
          deps.now(),
        );
      });
      changed(id, "changed", caller);
      return webhookView(mustGet(id));
    },
    /** Enabled again where its cursor stands (after a 410, the horizon, or an admin's disable). */
    enable(id: string, caller?: Caller): WebhookView {
      deps.transaction(() => {
        if (mustGet(id).enabled === 0) repo.enable(id, deps.now());
      });
      changed(id, "enabled", caller);
      return webhookView(mustGet(id));
    },
    /** Disabled by an admin: nothing more is sent; the cursor stays where it is. */
    disable(id: string, caller?: Caller): WebhookView {
      deps.transaction(() => {
        mustGet(id);
        repo.disable(id, "admin", deps.now());
      });
      if (caller)
        deps.record?.({ kind: "webhook_disabled", ...caller, detail: { endpoint: id, reason: "admin" } });
      onChange?.(id);
      return webhookView(mustGet(id));
    },
    remove(id: string, caller?: Caller): void {
      deps.transaction(() => {
        ownedByAdmin(mustGet(id), "remove");
        repo.remove(id);
      });
      changed(id, "removed", caller);
    },
    /**
     * Sends seq `from`..`to` again to this endpoint (those of its types), in order, before it goes on
     * from its cursor. Notifications after the cursor are sent anyway: the range stops there.
     */
    replay(id: string, input: unknown, caller?: Caller): WebhookView {
      const r: WebhookReplay = validate(webhookReplaySchema, input);
      deps.transaction(() => {
        const row = mustGet(id);
        const last = deps.outbox.lastSeq();
        if (r.from > last) throw fieldError("from", `beyond the last notification (seq ${last})`);
        const first = deps.outbox.firstSeq() ?? last + 1;
        if (r.from < first)
          throw new AppError(
            "replay_not_kept",
            `seq ${r.from} is no longer kept: the oldest kept is ${first}`,
            [{ path: "from", message: `below the oldest kept seq ${first}` }],
            { firstKept: first },
          );
        const to = Math.min(r.to, row.deliveredSeq);
        if (to >= r.from) repo.requestReplay(id, r.from, to, deps.now());
      });
      changed(id, `replay ${r.from}..${r.to}`, caller);
      return webhookView(mustGet(id));
    },
    /** Writes the config file's endpoints at start (config-endpoints.ts); the ids it removed. */
    applyConfig: (endpoints: readonly ConfiguredEndpoint[]): string[] =>
      applyConfigEndpoints(deps, endpoints),
    /** The running delivery's hook: told of every change made in this process. */
    onChange(fn: ((id: string) => void) | undefined): void {
      onChange = fn;
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
