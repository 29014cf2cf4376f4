/**
 * The Link (link.ts) over one connected mqtt.js client: QoS 1 publishes that report their PUBACK or
 * refusal, and nothing sent or queued once the connection is down (the outbox is the queue:
 * docs/mqtt.md#notifications-outbox-order-and-redelivery). Types only from mqtt: this module loads nothing.
 */
import type { IClientPublishOptions, IConnackPacket, MqttClient } from "mqtt";
import type { Logger } from "pino";
import type { Link } from "./link.js";

/** A Link the connection marks down when its client closes; it never comes back up. */
export type OwnedLink = Link & { markDown(): void };

export function createLink(
  c: MqttClient,
  connack: IConnackPacket,
  session: number,
  opts: { protocolVersion: 4 | 5; log: Logger },
): OwnedLink {
  let up = true;
  // MQTT 5: say the payload is JSON text (docs/mqtt.md#notification-envelope). Built once: this is the
  // hot path.
  const properties = { payloadFormatIndicator: true, contentType: "application/json" };
  const v5 = opts.protocolVersion === 5;
  const plain: IClientPublishOptions = v5 ? { qos: 1, retain: false, properties } : { qos: 1, retain: false };
  const retained: IClientPublishOptions = v5
    ? { qos: 1, retain: true, properties }
    : { qos: 1, retain: true };
  const l: OwnedLink = {
    session,
    receiveMaximum: connack.properties?.receiveMaximum ?? 65_535,
    maximumPacketSize: connack.properties?.maximumPacketSize,
    get up() {
      return up && c.connected;
    },
    publish(topic, payload, retain, done) {
      if (!l.up) {
        done({ message: "not connected" });
        return;
      }
      c.publish(topic, payload, retain ? retained : plain, (err) => {
        if (!err) done();
        else
          done({
            message: err.message,
            reasonCode: (err as { code?: unknown }).code as number | undefined,
          });
      });
    },
    publishAsync: (topic, payload, retain) =>
      new Promise<void>((ok, fail) =>
        l.publish(topic, payload, retain, (err) =>
          err ? fail(Object.assign(new Error(err.message), { reasonCode: err.reasonCode })) : ok(),
        ),
      ),
    drop(reason) {
      if (!up) return;
      opts.log.warn({ reason, session }, "mqtt: dropping the connection");
      c.end(true);
    },
    markDown() {
      up = false;
    },
  };
  return l;
}
