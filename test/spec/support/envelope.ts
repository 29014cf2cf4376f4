import { expect } from "vitest";
import type { Envelope } from "../../helpers/station.js";

/**
 * The spec's notification envelope ("Events"), checked on every notification a test reads: exactly
 * notification_type, version_number `1.5.0`, notification_id and notification_data; the id is unique
 * among all seen by `seen` (README "Notification ids": never the variant name `notification_seq`).
 */
export function envelopes(list: Envelope[], seen: Set<string> = new Set()): Envelope[] {
  for (const n of list) {
    expect(Object.keys(n).sort()).toEqual([
      "notification_data",
      "notification_id",
      "notification_type",
      "version_number",
    ]);
    expect(n.version_number).toBe("1.5.0");
    expect(typeof n.notification_id).toBe("string");
    expect(seen.has(n.notification_id)).toBe(false);
    seen.add(n.notification_id);
  }
  return list;
}
