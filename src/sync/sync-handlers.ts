/**
 * What the sync does on a connection's events and on the agent's bus: a new connection republishes the
 * station's retained state, then drains the outbox while the requests' retained states follow
 * (docs/mqtt.md#connection-will-and-session-numbers); a request is answered on its response topic
 * (docs/mqtt.md#requests-and-responses); commits wake the publisher and retained state
 * (docs/architecture.md#the-event-bus).
 */
import type { Logger } from "pino";
import type { EventBus } from "../events.js";
import type { ConnectionHandlers, Link } from "./link.js";
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
  const send = (link: Link, name: string, response: string) =>
    // Not queued when the link broke meanwhile: a retry with the same transaction gets it from the inbox.
    link.publish(topics.response(name), response, false, (err) => {
      if (err) log.warn({ request: name, err: err.message }, "mqtt: response not delivered");
    });
  const notProcessed = (name: string, err: unknown) =>
    log.error({ err, request: name }, "mqtt: request not processed");
  /** Answers one request: at once, or a promise when its operation works outside the database (a backup). */
  const answer = (link: Link, name: string, payload: Buffer): Promise<void> | undefined => {
    let response: string | Promise<string>;
    try {
      response = requests.process(name, payload, link.maximumPacketSize);
    } catch (err) {
      notProcessed(name, err);
      return undefined;
    }
    if (typeof response === "string") {
      send(link, name, response);
      return undefined;
    }
    return response.then(
      (text) => send(link, name, text),
      (err: unknown) => notProcessed(name, err),
    );
  };
  // While a slow request is answered, the ones after it wait their turn: requests stay in arrival order.
  let busy: Promise<void> | undefined;
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
      const next = busy ? busy.then(() => answer(link, name, payload)) : answer(link, name, payload);
      if (!next) return;
      const mine: Promise<void> = next.finally(() => {
        if (busy === mine) busy = undefined;
      });
      busy = mine;
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
