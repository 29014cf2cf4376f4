/**
 * What the sync does on a connection's events and on the agent's bus: a new connection republishes the
 * station's retained state, then drains the outbox while the requests' retained states follow
 * (docs/mqtt.md#connection-will-and-session-numbers); a request is answered on its response topic
 * (docs/mqtt.md#requests-and-responses); commits wake the publisher and retained state
 * (docs/architecture.md#the-event-bus).
 */
import type { Logger } from "pino";
import type { EventBus } from "../events.js";
import type { ConnectionHandlers } from "./link.js";
import type { SyncParts } from "./sync-parts.js";
import type { Topics } from "./topics.js";

/** The bus owner the sync's subscriptions are registered (and dropped) under. */
export const OWNER = "sync";

export function connectionHandlers(
  parts: Pick<SyncParts, "publisher" | "retained" | "requests" | "counters">,
  topics: Topics,
  log: Logger,
): ConnectionHandlers {
  const { publisher, retained, requests, counters } = parts;
  return {
    async onUp(link) {
      // state/station (with lastNotificationSeq) first, then the backlog resumes at once; the requests'
      // retained states follow alongside (docs/mqtt.md#backoff-and-reconnects)
      await retained.attach(link, () => publisher.attach(link));
    },
    onDown(link) {
      publisher.detach(link);
      retained.detach(link);
    },
    onMessage(link, topic, payload) {
      const name = topics.requestName(topic);
      if (name === undefined) return;
      let response: string;
      try {
        response = requests.process(name, payload, link.maximumPacketSize);
      } catch (err) {
        log.error({ err, request: name }, "mqtt: request not processed");
        return;
      }
      // Not queued when the link broke meanwhile: a retry with the same transaction gets it from the inbox.
      link.publish(topics.response(name), response, false, (err) => {
        if (err) log.warn({ request: name, err: err.message }, "mqtt: response not delivered");
      });
    },
    onReconnectScheduled(delayMs) {
      counters.reconnects.inc();
      log.debug({ delayMs }, "mqtt: reconnecting");
    },
  };
}

/** New notifications wake the publisher; station and request changes republish their retained state. */
export function listenToBus(bus: EventBus, parts: Pick<SyncParts, "publisher" | "retained">): void {
  const { publisher, retained } = parts;
  bus.on(OWNER, "outbox", () => {
    publisher.wake();
    retained.notificationsProduced();
  });
  bus.on(OWNER, "station", () => retained.stationChanged());
  bus.on(OWNER, "request", (e) =>
    retained.requestChanged({ type: e.type, externalServiceRequestId: e.externalServiceRequestId }),
  );
}
