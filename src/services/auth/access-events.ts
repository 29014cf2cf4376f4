import type { Logger } from "pino";
import type { Role } from "../../domain/roles.js";
import { roleRefusedEvent } from "../../domain/security-event.js";
import type { Metrics } from "../../metrics.js";
import type { SecurityRecorder } from "./security-log.js";

/**
 * The two places where access is refused or taken back (docs/security.md#roles): every role refusal, over HTTP,
 * on the operator screen and on the embedded MQTT broker, goes through `onForbidden`; every revocation
 * (tokens of a removed user or a new password, an open screen stream or an MQTT connection ended because
 * its user was removed or changed) through `onRevoked`. Each is logged as a warning, counted on
 * /metrics (`auth_forbidden_total{role}`, `auth_revocations_total{reason}`) and recorded in the
 * security event log (`role_refused`, once per caller and target every 10 minutes; `token_revoked`).
 */

export type AccessChannel = "http" | "screen" | "mqtt";

export interface ForbiddenEvent {
  /** The user refused; none for an anonymous broker client. */
  username: string | undefined;
  role: Role;
  via: AccessChannel;
  /** What was refused: `PUT /station/mode`, a topic filter, `connect`, `screen sign-in`. */
  what: string;
  /** The roles that may (RouteSpec `roles`), when the refusal is a route's. */
  needed?: readonly string[] | undefined;
  address?: string | undefined;
}

export type RevokeReason = "user_removed" | "password_reset" | "role_changed" | "token_revoked";

/** What was taken back: the user's tokens, an open screen event stream, an MQTT connection. */
export type Revoked = "tokens" | "screen_stream" | "mqtt_client";

export interface RevokedEvent {
  username: string;
  reason: RevokeReason;
  what: Revoked;
}

export interface AccessEvents {
  onForbidden(e: ForbiddenEvent): void;
  onRevoked(e: RevokedEvent): void;
}

/** Where a revocation happened: the tokens by the user commands, streams and connections in the agent. */
const REVOKED_CHANNEL = { tokens: "cli", screen_stream: "screen", mqtt_client: "mqtt" } as const;

export interface AccessRecorders {
  /** Every event (security-log.ts `record`). */
  record?: SecurityRecorder | undefined;
  /** Refusals, recorded once per caller and target every 10 minutes (security-log.ts `refused`). */
  refused?: SecurityRecorder | undefined;
}

/**
 * Without a logger and metrics (the command line) the events are only recorded in the security event
 * log: the agent notices the change itself and logs what it ends.
 */
export function createAccessEvents(
  log?: Logger,
  metrics?: Metrics,
  security: AccessRecorders = {},
): AccessEvents {
  const forbidden = metrics?.counter("auth_forbidden_total", "Calls refused for the caller's role", ["role"]);
  const revocations = metrics?.counter(
    "auth_revocations_total",
    "Tokens, screen streams and MQTT connections taken back from a removed or changed user, by reason",
    ["reason"],
  );
  return {
    onForbidden(e) {
      forbidden?.inc({ role: e.role });
      log?.warn(
        { user: e.username, role: e.role, via: e.via, what: e.what, address: e.address },
        "forbidden",
      );
      security.refused?.(
        roleRefusedEvent({
          channel: e.via,
          username: e.username ?? "",
          role: e.role,
          needed: e.needed ?? [],
          target: e.what,
          address: e.address,
        }),
      );
    },
    onRevoked(e) {
      revocations?.inc({ reason: e.reason });
      log?.warn({ user: e.username, reason: e.reason, what: e.what }, "access revoked");
      security.record?.({
        kind: "token_revoked",
        channel: REVOKED_CHANNEL[e.what],
        username: e.username,
        detail: { reason: e.reason, scope: e.what === "tokens" ? "user" : e.what },
      });
    },
  };
}
