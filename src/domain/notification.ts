/**
 * The notification envelope (spec: Events). Every notification the agent emits has exactly these four
 * members; `notification_data` is the payload of the type's row in the spec's table.
 */
export const NOTIFICATION_VERSION = "1.5.0";

export const NOTIFICATION_TYPES = [
  "audit_information",
  "order_information",
  "order_modification",
  "bin_complete",
  "put_information",
  "report_generation",
  "pack_information",
  // the station's own: what happens to a seat (docs/mqtt.md#seat-notifications)
  "seat_paused",
  "seat_resumed",
  "message_acknowledged",
  // the station's own: an operator's session at a seat ended (docs/mqtt.md#session-summaries)
  "session_summary",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface Envelope<D = unknown> {
  notification_type: NotificationType;
  version_number: typeof NOTIFICATION_VERSION;
  notification_id: string;
  notification_data: D;
}

/** `<site>.<ppsId>.<seq>`: unique across stations, never reused, and sortable within one station. */
export function notificationId(site: string, ppsId: string, seq: number): string {
  return `${site}.${ppsId}.${seq}`;
}

export function envelope<D>(type: NotificationType, id: string, data: D): Envelope<D> {
  return {
    notification_type: type,
    version_number: NOTIFICATION_VERSION,
    notification_id: id,
    notification_data: data,
  };
}
