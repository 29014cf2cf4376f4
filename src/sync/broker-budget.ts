/**
 * The embedded broker's budget per caller (docs/limits.md), beside its door and ACL (broker-guard.ts):
 * connections in total and per source address, refused as the socket arrives, before a byte is read
 * (the per-address count is the pure connection-table.ts); and subscriptions per client, refused one
 * filter at a time with SUBACK 0x80 (MQTT 3.1.1 §3.9.3) through aedes' `authorizeSubscribe` hook, the
 * connection kept. aedes itself keeps no count of either (its options: https://github.com/moscajs/aedes/blob/main/docs/Aedes.md).
 */
import type { Socket } from "node:net";
import type { AedesOptions, Client } from "aedes";
import { connectionTable } from "../domain/connection-table.js";

export interface BrokerBudget {
  /** Connections open at once, all listeners together. */
  maxConnections: number;
  /** Connections one source address may hold at once. */
  maxConnectionsPerAddress: number;
  /** Topic filters one client may hold subscribed. */
  maxSubscriptionsPerClient: number;
}

export type BrokerRefusal = "mqtt_connections" | "mqtt_connections_per_address" | "mqtt_subscriptions";

/** Says whether an arriving socket may stay; a kept one gives its place back when it closes. */
export function connectionBudget(
  budget: BrokerBudget,
  refused: (reason: BrokerRefusal, address: string) => void,
): (socket: Socket) => boolean {
  const table = connectionTable(budget.maxConnectionsPerAddress);
  let open = 0;
  return (socket) => {
    const address = socket.remoteAddress ?? "unknown";
    if (open >= budget.maxConnections) {
      refused("mqtt_connections", address);
      return false;
    }
    if (!table.take(address)) {
      refused("mqtt_connections_per_address", address);
      return false;
    }
    open++;
    socket.once("close", () => {
      open--;
      table.release(address);
    });
    return true;
  };
}

type AuthorizeSubscribe = NonNullable<AedesOptions["authorizeSubscribe"]>;

/**
 * `authorize` held to `max` filters per client: a filter past it is refused before the ACL is asked.
 * `unsubscribed` is to be told of aedes' `unsubscribe` events, which give the places back.
 */
export function subscriptionBudget(
  authorize: AuthorizeSubscribe,
  max: number,
  refused: (reason: BrokerRefusal, client: Client) => void,
): { authorizeSubscribe: AuthorizeSubscribe; unsubscribed(topics: string[], client: Client): void } {
  const held = new WeakMap<Client, Set<string>>();
  const of = (client: Client) => {
    let s = held.get(client);
    if (!s) {
      s = new Set();
      held.set(client, s);
    }
    return s;
  };
  return {
    authorizeSubscribe(client, sub, done) {
      const filters = of(client);
      // a filter held already replaces itself (a new QoS): no new place
      if (filters.has(sub.topic)) return authorize(client, sub, done);
      if (filters.size >= max) {
        refused("mqtt_subscriptions", client);
        return done(null, null);
      }
      // taken before asking, so filters of one SUBSCRIBE authorised in parallel count each other
      filters.add(sub.topic);
      authorize(client, sub, (err, granted) => {
        if (err || !granted) filters.delete(sub.topic);
        done(err, granted);
      });
    },
    unsubscribed(topics, client) {
      const filters = held.get(client);
      for (const t of topics) filters?.delete(t);
    },
  };
}
