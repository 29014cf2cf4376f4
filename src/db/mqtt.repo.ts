import { FINAL_STATUSES } from "../domain/pick.machine.js";
import type { Sqlite } from "./open.js";
import type { RequestRow } from "./requests.repo.js";
import type { SqlRow } from "./row.types.js";
import type { mqttInbox, settings } from "./tables.js";

export type InboxRow = SqlRow<typeof mqttInbox>;

/** Whether the broker holds (or should hold) a request's retained state: see `stateClearedOn`. */
const RETAINED = "(state_cleared_on IS NULL OR state_cleared_on < updated_on)";
const FINAL = FINAL_STATUSES.map((s) => `'${s}'`).join(", ");

export interface RequestKeyRow {
  cursor: RequestRow["id"];
  type: RequestRow["type"];
  externalServiceRequestId: RequestRow["externalId"];
}

/**
 * What the MQTT sync keeps besides the outbox (outbox.repo.ts owns the notifications and their
 * delivery): the request inbox (idempotency by `transaction`) and the connection session counter
 * (docs/mqtt.md#connection-will-and-session-numbers, docs/mqtt.md#requests-and-responses).
 */
export function createMqttRepo(sqlite: Sqlite) {
  const q = {
    inboxGet: sqlite.prepare<[string], InboxRow>(
      `SELECT txn_id AS txnId, name, request_hash AS requestHash, response, created_at AS createdAt
         FROM mqtt_inbox WHERE txn_id = ?`,
    ),
    inboxPut: sqlite.prepare(
      "INSERT INTO mqtt_inbox (txn_id, name, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
    inboxPrune: sqlite.prepare("DELETE FROM mqtt_inbox WHERE created_at < ?"),
    session: sqlite.prepare<[], Pick<SqlRow<typeof settings>, "value">>(
      `INSERT INTO settings (key, value) VALUES ('mqtt.session', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
       RETURNING value`,
    ),
    requestPage: sqlite.prepare<[number, number], RequestKeyRow>(
      `SELECT id AS cursor, type, external_id AS externalServiceRequestId
         FROM service_requests WHERE id > ? AND ${RETAINED} ORDER BY id LIMIT ?`,
    ),
    finalSince: sqlite.prepare<[string, string], { updatedOn: number }>(
      `SELECT updated_on AS updatedOn FROM service_requests
        WHERE type = ? AND external_id = ? AND status IN (${FINAL})`,
    ),
    due: sqlite.prepare<[number, number], RequestKeyRow>(
      `SELECT id AS cursor, type, external_id AS externalServiceRequestId FROM service_requests
        WHERE ${RETAINED} AND updated_on <= ? AND status IN (${FINAL}) ORDER BY updated_on LIMIT ?`,
    ),
    markCleared: sqlite.prepare<[number, string, string, number]>(
      `UPDATE service_requests SET state_cleared_on = ?
        WHERE type = ? AND external_id = ? AND updated_on <= ?`,
    ),
  };

  return {
    inboxGet: (txnId: string): InboxRow | undefined => q.inboxGet.get(txnId),
    /** Must run inside the transaction of the change the request made. */
    inboxPut(row: InboxRow): void {
      q.inboxPut.run(row.txnId, row.name, row.requestHash, row.response, row.createdAt);
    },
    inboxPrune: (before: number): number => q.inboxPrune.run(before).changes,
    /** The next connection session number; it only grows, across restarts too (Sparkplug bdSeq rule). */
    nextSession: (): number => Number(q.session.get()?.value ?? 1),
    /** Service requests by row id, a page at a time: the retained `state/<type>/<id>` messages. */
    requestPage: (after: number, limit: number): RequestKeyRow[] => q.requestPage.all(after, limit),
    /** When a request reached a final status, or undefined while it is active (or unknown). */
    finalSince: (type: string, externalId: string): number | undefined =>
      q.finalSince.get(type, externalId)?.updatedOn,
    /** Final requests whose retained state is still held and was last changed at or before `before`. */
    dueForClearing: (before: number, limit: number): RequestKeyRow[] => q.due.all(before, limit),
    /**
     * Records that the broker acknowledged clearing the request's retained state, decided at `decidedAt`;
     * a change since then keeps it retained (its new state was published after the clearing).
     */
    markCleared(type: string, externalId: string, decidedAt: number): void {
      q.markCleared.run(decidedAt, type, externalId, decidedAt);
    },
  };
}

export type MqttRepo = ReturnType<typeof createMqttRepo>;
