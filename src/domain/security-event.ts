/**
 * The security event log's vocabulary (docs/security.md#security-event-log): what happened, over which channel,
 * to which user name, from which address, and a few facts as JSON. Pure: no clock, no IO. Nothing
 * secret is ever part of an event: `safeDetail` drops any fact whose name speaks of a password, a token
 * or a secret, whoever passes it.
 */
import { z } from "zod";
import { cutText } from "./text.js";

export const SECURITY_EVENT_KINDS = [
  "login_succeeded",
  "login_failed",
  /** A lockout began (once per episode per user name and address, or per address). */
  "login_throttled",
  "user_added",
  "user_removed",
  "password_changed",
  "role_changed",
  "token_revoked",
  /** A caller without the route's role (403 `forbidden`). */
  "role_refused",
  /** A webhook endpoint added, changed, removed, enabled again or replayed by an admin (`detail.action`). */
  "webhook_changed",
  /** A webhook endpoint disabled: 410 Gone, failing past the horizon, or by an admin (docs/webhooks.md). */
  "webhook_disabled",
  /** A supervisor's credential set or removed (`detail.badge`, `detail.pin`: set, removed or kept). */
  "supervisor_changed",
  /**
   * A supervisor's badge or PIN authorised one action at a seat: `username` is the supervisor,
   * `detail.operator` the operator logged in at the seat (docs/station.md#supervisor-at-the-seat).
   */
  "supervisor_authorised",
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** `webhook`: the agent's own delivery did it (an endpoint disabled on a 410 or at the horizon). */
export const SECURITY_CHANNELS = ["http", "mqtt", "screen", "cli", "webhook"] as const;
export type SecurityChannel = (typeof SECURITY_CHANNELS)[number];

export type SecurityDetail = Record<string, string | number | boolean | null>;

/** One event as a recorder is given it. */
export interface SecurityEventInput {
  kind: SecurityEventKind;
  channel: SecurityChannel;
  /** The user name as given: it may name no user (an unknown user's failed login). */
  username?: string | undefined;
  address?: string | undefined;
  detail?: SecurityDetail | undefined;
}

/** One event as stored and listed, newest first. */
export interface SecurityEvent {
  id: number;
  /** epoch ms */
  at: number;
  kind: SecurityEventKind;
  channel: SecurityChannel;
  username: string | null;
  address: string | null;
  detail: SecurityDetail | null;
}

/** What a reader asks for: a time range, a kind, a user name, and a page below an id. */
export interface SecurityEventQuery {
  since?: number | undefined;
  until?: number | undefined;
  kind?: SecurityEventKind | undefined;
  username?: string | undefined;
  /** Only events with a smaller id: the next page of a newest-first listing. */
  beforeId?: number | undefined;
  limit: number;
}

/** What a 403 `forbidden` records: who asked for what, and which roles the route takes. */
export function roleRefusedEvent(refusal: {
  channel: SecurityChannel;
  username: string;
  role: string;
  /** The roles the route takes (RouteSpec `roles`), or the topic's rule on the broker. */
  needed: readonly string[];
  /** e.g. `PUT /station/mode`, or an MQTT topic */
  target: string;
  address?: string | undefined;
}): SecurityEventInput {
  return {
    kind: "role_refused",
    channel: refusal.channel,
    username: refusal.username,
    address: refusal.address,
    detail: { role: refusal.role, needed: refusal.needed.join(","), target: refusal.target },
  };
}

/** What one supervised action at a seat records: both names, the seat, the tap and how it ended. */
export function supervisorAuthorisedEvent(a: {
  supervisor: string;
  operator: string | null;
  seat: string;
  action: string;
  /** the engine's or operation's answer: done, refused (with its reason) */
  result: string;
  reason?: string | undefined;
  /** the API user of the screen's session, if any (none for the station box's key session) */
  caller?: string | undefined;
  address?: string | undefined;
  /** what the action did, in its outcome's words (a correction's slots or bins: docs/station.md#undo) */
  params?: Record<string, string> | undefined;
}): SecurityEventInput {
  return {
    kind: "supervisor_authorised",
    channel: "screen",
    username: a.supervisor,
    address: a.address,
    // the outcome's words first: they never stand in for the names, the seat or the result
    detail: {
      ...(a.params ?? {}),
      operator: a.operator,
      seat: a.seat,
      action: a.action,
      result: a.result,
      ...(a.reason ? { reason: a.reason } : {}),
      ...(a.caller ? { caller: a.caller } : {}),
    },
  };
}

/** Bounds of one stored text: a user name tried at the token endpoint may be up to 1 KiB long. */
export const MAX_TEXT = 128;
const SECRET_NAME = /pass|secret|token|^key$|authori[sz]ation|cookie/i;

/** A text cut to MAX_TEXT characters (a guessed user name must not make rows large). */
export function boundedText(text: string | undefined): string | null {
  if (text === undefined) return null;
  return cutText(text, MAX_TEXT);
}

/** The detail without facts named like secrets, texts bounded; null when nothing is left. */
export function safeDetail(detail: SecurityDetail | undefined): SecurityDetail | null {
  if (!detail) return null;
  const out: SecurityDetail = {};
  for (const [name, value] of Object.entries(detail)) {
    if (SECRET_NAME.test(name)) continue;
    out[name] = typeof value === "string" ? boundedText(value) : value;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Retention (config `security.eventRetentionDays`, `security.eventMaxRows`). */
export interface SecurityRetention {
  days: number;
  maxRows: number;
}

/** Events at or before this instant are past retention. */
export function retentionCutoff(now: number, days: number): number {
  return now - days * 24 * 3600_000;
}

export const instant = z.iso
  .datetime({ offset: true })
  .transform((text) => Date.parse(text))
  .describe("ISO 8601 date and time with `Z` or an offset, e.g. `2026-11-21T10:00:00Z`");

/**
 * A reader's query as text (GET /station/security-events, `pps-edge security-events`): `since`
 * inclusive, `until` exclusive, newest first, `before_id` for the next page.
 */
export const securityEventQuerySchema = z
  .object({
    since: instant.optional(),
    until: instant.optional(),
    kind: z.enum(SECURITY_EVENT_KINDS).optional(),
    username: z.string().min(1).max(MAX_TEXT).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    before_id: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Only events below this id (the next page)"),
  })
  .strict();

/** The validated query as the log reads it. */
export function toSecurityEventQuery(q: z.output<typeof securityEventQuerySchema>): SecurityEventQuery {
  return {
    since: q.since,
    until: q.until,
    kind: q.kind,
    username: q.username,
    beforeId: q.before_id,
    limit: q.limit,
  };
}
