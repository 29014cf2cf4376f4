import mqtt from "mqtt";
import { deadline } from "../deadline.js";

export interface Received {
  topic: string;
  payload: string;
  retain: boolean;
  /** The QoS the broker delivered the message with (a subscriber over MQTT; not the in-broker tap). */
  qos?: number;
}

/**
 * A central-system stand-in: subscribes and records every message. `waitFor` resolves on the message
 * that makes the condition true, or fails after a bounded time saying what was seen.
 */
export interface Subscriber {
  messages: Received[];
  on(topic: string): Received[];
  waitFor(what: string, done: (messages: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export async function subscribe(
  url: string,
  filters: string[],
  opts: {
    clientId?: string;
    clean?: boolean;
    protocolVersion?: 4 | 5;
    username?: string;
    password?: string;
  } = {},
): Promise<Subscriber> {
  const client = mqtt.connect(url, {
    ...(opts.username === undefined ? {} : { username: opts.username, password: opts.password }),
    clientId: opts.clientId ?? `test-sub-${process.pid}-${Math.random().toString(16).slice(2)}`,
    clean: opts.clean ?? true,
    protocolVersion: opts.protocolVersion ?? 4,
    reconnectPeriod: 20,
    connectTimeout: 5000,
  });
  const messages: Received[] = [];
  const waiters = new Set<() => void>();
  client.on("message", (topic, payload, packet) => {
    messages.push({ topic, payload: payload.toString("utf8"), retain: packet.retain, qos: packet.qos });
    for (const w of [...waiters]) w();
  });
  // Subscribe on every connect that has no session at the broker: a clean session loses its subscriptions.
  await new Promise<void>((ok, fail) => {
    const t = setTimeout(() => fail(new Error(`subscriber could not connect to ${url}`)), deadline(10_000));
    const ready = (err?: Error | null) => {
      clearTimeout(t);
      if (err) fail(err);
      else ok();
    };
    client.on("connect", (connack) => {
      if (connack.sessionPresent) ready();
      else client.subscribe(filters, { qos: 1 }, (err) => ready(err));
    });
  });
  return {
    ...recorder(messages, waiters),
    // bounded: a packet the broker closes the connection for is resent on every reconnect, for ever
    publish: async (topic, payload) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(
          () => fail(new Error(`publish on ${topic} (${payload.length} bytes) not acknowledged in time`)),
          deadline(15_000),
        );
      });
      try {
        await Promise.race([client.publishAsync(topic, payload, { qos: 1 }), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => client.endAsync(true),
  };
}

/**
 * Resolves once `done(items)` holds, checked now and whenever a waiter is called (a new item came), or
 * fails after `timeoutMs`, saying what was awaited and what `seen` makes of the items.
 */
export function waitOn<T>(
  items: T[],
  waiters: Set<() => void>,
  what: string,
  done: (items: T[]) => boolean,
  timeoutMs: number,
  seen: (items: T[]) => string,
): Promise<void> {
  if (done(items)) return Promise.resolve();
  return new Promise<void>((ok, fail) => {
    const check = () => {
      if (!done(items)) return;
      waiters.delete(check);
      clearTimeout(timer);
      ok();
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      fail(new Error(`timed out waiting for ${what}; ${seen(items)}`));
    }, deadline(timeoutMs));
    waiters.add(check);
  });
}

/** The reading side of a subscriber, over a list that something else fills and a set of waiters to wake. */
export function recorder(
  messages: Received[],
  waiters: Set<() => void>,
): Pick<Subscriber, "messages" | "on" | "waitFor"> {
  return {
    messages,
    on: (topic) => messages.filter((m) => m.topic === topic),
    waitFor: (what, done, timeoutMs = 15_000) =>
      waitOn(messages, waiters, what, done, timeoutMs, (m) => `${m.length} messages seen`),
  };
}
