/**
 * The agent's topics as the consumer reads them (docs/mqtt.md, "Topics"): everything of a station is
 * under `ppsedge/v1/<site>/<ppsId>/`, each id one topic level (percent-encoded where needed), so the
 * station key `<site>/<ppsId>` is taken from the topic as it is.
 */

export const PREFIX = "ppsedge/v1";
export const REPLAY = "replay_notifications";

export type StationTopic = "notification" | "state/station" | `response/${typeof REPLAY}`;

export const topicOf = (station: string, kind: StationTopic | `request/${typeof REPLAY}`): string =>
  `${PREFIX}/${station}/${kind}`;

/** The filter that announces every station of a site: its retained `state/station`. */
export const stationStates = (site: string): string => `${PREFIX}/${site}/+/state/station`;

/**
 * What a consumer subscribes: every station of the site's `state/station` (which announces it),
 * `notification` and replay answers. Three filters whatever the number of stations: an instance keeps
 * its own share of what arrives, so the broker holds three subscriptions per consumer, not two per
 * station (on NATS each QoS 1 subscription is a JetStream consumer of its own; docs/mqtt.md#nats).
 */
export const siteFilters = (site: string): string[] => [
  stationStates(site),
  `${PREFIX}/${site}/+/notification`,
  `${PREFIX}/${site}/+/response/${REPLAY}`,
];

/** `ppsedge/v1/<site>/<ppsId>/<kind>` → station and kind, or null for anything else. */
export function parseTopic(topic: string): { station: string; kind: StationTopic } | null {
  const parts = topic.split("/");
  if (parts.length < 5 || `${parts[0]}/${parts[1]}` !== PREFIX) return null;
  const kind = parts.slice(4).join("/");
  if (kind !== "notification" && kind !== "state/station" && kind !== `response/${REPLAY}`) return null;
  return { station: `${parts[2]}/${parts[3]}`, kind };
}

/** The seq a `notification_id` (`<site>.<ppsId>.<seq>`) ends with; null if it is not one. */
export function seqOfId(id: unknown): number | null {
  if (typeof id !== "string") return null;
  const seq = Number(id.slice(id.lastIndexOf(".") + 1));
  return Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}
