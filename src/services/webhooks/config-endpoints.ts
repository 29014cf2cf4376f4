/**
 * The config file's webhook endpoints, written to the database at every start (docs/webhooks.md#endpoints).
 * New ones start at the current end of the outbox; known ones take the file's URL, types and secret and
 * keep their cursor; ones taken out of the file are removed with their cursors, as an admin's removal
 * would. `enabled: false` in the file disables; `true` does not undo a disable by the delivery (410,
 * horizon) or by an admin: that takes an admin, who looks at why first.
 */
import type { OutboxRepo } from "../../db/outbox.repo.js";
import type { WebhooksRepo } from "../../db/webhooks.repo.js";
import { fieldError } from "../../domain/errors.js";
import { refusedUrl, type UrlRules } from "../../domain/webhook-address.js";

/** An endpoint the config file declares (config/webhooks.schema.ts), as far as the database keeps it. */
export interface ConfiguredEndpoint {
  id: string;
  url: string;
  types?: readonly string[] | undefined;
  secret: string;
  enabled: boolean;
}

export interface ConfigEndpointsDeps {
  repo: WebhooksRepo;
  outbox: Pick<OutboxRepo, "lastSeq">;
  transaction<T>(fn: () => T): T;
  rules: UrlRules;
  now(): number;
}

/** The stored form of a types list: JSON, or null for every type. */
export const typesJson = (t: readonly string[] | null | undefined): string | null =>
  t === null || t === undefined ? null : JSON.stringify(t);

/** Writes the endpoints; returns the ids removed because the file no longer names them. */
export function applyConfigEndpoints(
  deps: ConfigEndpointsDeps,
  endpoints: readonly ConfiguredEndpoint[],
): string[] {
  const { repo } = deps;
  for (const e of endpoints) {
    const why = refusedUrl(e.url, deps.rules);
    if (why) throw fieldError(`webhooks.endpoints.${e.id}.url`, why, "webhook_url_refused");
  }
  return deps.transaction(() => {
    const named = new Set(endpoints.map((e) => e.id));
    const gone = repo.list().filter((r) => r.source === "config" && !named.has(r.id));
    for (const r of gone) repo.remove(r.id);
    for (const e of endpoints) {
      const row = repo.get(e.id);
      const fields = {
        id: e.id,
        url: e.url,
        types: typesJson(e.types),
        secret: e.secret,
        source: "config" as const,
      };
      if (!row) repo.insert({ ...fields, enabled: e.enabled }, deps.outbox.lastSeq(), deps.now());
      else if (
        row.url !== e.url ||
        row.types !== fields.types ||
        row.secret !== e.secret ||
        row.source !== "config"
      )
        repo.update(fields, deps.now());
      if (row && !e.enabled) repo.disable(e.id, "config", deps.now());
      if (row?.disabledReason === "config" && e.enabled) repo.enable(e.id, deps.now());
    }
    return gone.map((r) => r.id);
  });
}
