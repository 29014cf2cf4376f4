import { expect } from "vitest";
import { startTestAgent, type TestAgent } from "../../helpers/agent.js";
import type { Envelope } from "../../helpers/station.js";
import { CENTRAL, committed, FAST, PPS, ROOT, SITE } from "../../sync/support/agent.js";
import { type Subscriber, subscribe } from "../../sync/support/subscriber.js";

/**
 * The conformance suite's stand-in for the central system: an agent with its embedded broker, and a
 * subscriber holding the central credentials that records every notification the broker delivers. A
 * test reads the notifications its call caused off the broker, never from the database.
 */
export interface Central {
  t: TestAgent;
  broker: Subscriber;
  /** Forgets the notifications so far: `since()` then returns only what follows. */
  mark(): Promise<void>;
  /** Every notification since the last mark, once the broker delivered all that is committed. */
  since(): Promise<Envelope[]>;
  close(): Promise<void>;
}

const NOTIFICATION = `${ROOT}/notification`;

/** `overrides` are agent configuration (e.g. `http`); the embedded broker and the station ids are fixed. */
export async function startCentral(overrides: Record<string, unknown> = {}): Promise<Central> {
  const mqtt = { url: "embedded", embeddedPort: 0, ...FAST };
  const http = { host: "127.0.0.1", port: 0, ...(overrides.http as object | undefined) };
  const t = await startTestAgent({ site: SITE, ppsId: PPS, mqtt, ...overrides, http }, { listen: true });
  const broker = await subscribe(t.agent.sync.url as string, [`${ROOT}/#`], CENTRAL);
  let seen = 0;
  const delivered = async (): Promise<Envelope[]> => {
    const expected = committed(t).length;
    await broker.waitFor(`${expected} notifications`, () => broker.on(NOTIFICATION).length >= expected);
    const got = broker.on(NOTIFICATION).map((m) => JSON.parse(m.payload) as Envelope);
    expect(got.length).toBe(expected);
    return got;
  };
  return {
    t,
    broker,
    async mark() {
      seen = (await delivered()).length;
    },
    async since() {
      const all = await delivered();
      const out = all.slice(seen);
      seen = all.length;
      return out;
    },
    async close() {
      await broker.close();
      await t.close();
    },
  };
}
