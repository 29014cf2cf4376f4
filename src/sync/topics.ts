/**
 * Topic names (docs/mqtt.md): everything of one station lives under
 * `ppsedge/v1/<site>/<ppsId>/`, with `v1` the major version of the interface (docs/mqtt.md#topics).
 * Pure: no IO.
 */

import { mayPerform, type Operation } from "../domain/permissions.js";
import type { Role } from "../domain/roles.js";
export const TOPIC_PREFIX = "ppsedge/v1";

/**
 * Operations the central system may request over MQTT (docs/architecture.md#interfaces): the writes, and
 * `replay_notifications`, which reads the outbox (docs/mqtt.md#replaying-notifications).
 */
export const REQUEST_NAMES = [
  "create_service_request",
  "cancel_service_request",
  "modify_service_request",
  "stage_put",
  "create_audit",
  "delete_audit",
  "upsert_item",
  "upsert_catalog",
  "generate_inventory_report",
  "print_ready",
  "rack_presented",
  "replay_notifications",
  // the station's own: a backup of its database into its data folder (docs/cli.md#backup-and-restore)
  "backup",
  "replay_dead_letters",
  "health_check",
  // what central tells a seat (docs/mqtt.md#telling-a-seat)
  "pause_seat",
  "resume_seat",
  "set_mode",
  "send_message",
  "sign_out",
  // the station's own: the targets the seats' productivity is shown against (docs/mqtt.md#session-summaries)
  "set_productivity_targets",
] as const;
export type RequestName = (typeof REQUEST_NAMES)[number];

/**
 * The operation each request performs (domain/permissions.ts): the same as its HTTP route's, so a role
 * may send a request exactly when it may call the route. The embedded broker refuses the others.
 */
export const REQUEST_OPERATION: Readonly<Record<RequestName, Operation>> = {
  create_service_request: "create_service_request",
  cancel_service_request: "cancel_service_request",
  modify_service_request: "modify_service_request",
  stage_put: "stage_put",
  create_audit: "create_audit",
  delete_audit: "delete_audit",
  upsert_item: "upsert_item",
  upsert_catalog: "upsert_catalog",
  generate_inventory_report: "generate_inventory_report",
  print_ready: "print_ready",
  rack_presented: "rack_presented",
  replay_notifications: "read_notifications",
  backup: "backup",
  replay_dead_letters: "replay_dead_letters",
  health_check: "health_check",
  pause_seat: "pause_seat",
  resume_seat: "pause_seat",
  set_mode: "set_mode",
  send_message: "message_seat",
  sign_out: "sign_out_operator",
  set_productivity_targets: "set_productivity_targets",
};

/** The requests `role` may not send (docs/mqtt.md#roles): for an admin, none. */
export function requestsRefusedTo(role: Role): RequestName[] {
  return REQUEST_NAMES.filter((name) => !mayPerform(role, REQUEST_OPERATION[name]));
}

export function isRequestName(name: string): name is RequestName {
  return (REQUEST_NAMES as readonly string[]).includes(name);
}

/**
 * One topic level from an id. Ids keep `A-Z a-z 0-9 _ . : -` as they are; any other character
 * (notably `/`, `+`, `#`, which would split a level or act as a wildcard: docs/mqtt.md#topics) is
 * percent-encoded, so every id maps to exactly one level and back.
 */
export function topicLevel(id: string): string {
  return id.replace(/[^A-Za-z0-9_.:-]/gu, (ch) =>
    [...Buffer.from(ch, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
  );
}

export interface Topics {
  root: string;
  connection: string;
  notification: string;
  stationState: string;
  requestState(type: string, externalServiceRequestId: string): string;
  /** The filter the agent subscribes to: every request name, one level. */
  requests: string;
  response(name: string): string;
  /** The request name of a topic under `request/`, or undefined for any other topic. */
  requestName(topic: string): string | undefined;
}

export function topicsFor(site: string, ppsId: string): Topics {
  const root = `${TOPIC_PREFIX}/${topicLevel(site)}/${topicLevel(ppsId)}`;
  const requestPrefix = `${root}/request/`;
  return {
    root,
    connection: `${root}/connection`,
    notification: `${root}/notification`,
    stationState: `${root}/state/station`,
    requestState: (type, id) => `${root}/state/${topicLevel(type)}/${topicLevel(id)}`,
    requests: `${requestPrefix}+`,
    response: (name) => `${root}/response/${topicLevel(name)}`,
    requestName(topic) {
      if (!topic.startsWith(requestPrefix)) return undefined;
      const name = topic.slice(requestPrefix.length);
      return name === "" || name.includes("/") ? undefined : name;
    },
  };
}
