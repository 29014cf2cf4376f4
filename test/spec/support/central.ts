import { expect } from "vitest";
import { passwordGrant, startTestAgent, type TestAgent, TOKEN_PATH } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import type { Envelope } from "../../support/station.js";
import { CENTRAL, committed, FAST, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";
import { socketRequest } from "./socket-http.js";

/**
 * The conformance suite's stand-in for the central system: an agent listening on a port with its
 * embedded broker, reached the way an integrator reaches it. Every HTTP call (`call`, and `t.call`,
 * `t.request`, `t.token` of the station-side helpers) goes over the real socket with a token obtained
 * over HTTP; a subscriber holding the central credentials records every notification the broker
 * delivers. A test reads the notifications its call caused off the broker, never from the database.
 */
export interface Central {
  t: TestAgent;
  broker: Subscriber;
  /** The station's base address, e.g. `http://127.0.0.1:40155`. */
  base: string;
  /** A JSON call with the central's bearer token, over the socket; `headers` add to or replace its own. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Forgets the notifications so far: `since()` then returns only what follows. */
  mark(): Promise<void>;
  /** Every notification since the last mark, once the broker delivered all that is committed. */
  since(): Promise<Envelope[]>;
  /**
   * `since()`, read until at least `count` arrived (or 5 s passed): for effects the agent runs just after
   * the call's commit (the staging evaluation after a stage call, the audit conflict re-check after a
   * pick or put change), which `since()` alone may read too early.
   */
  sinceAtLeast(count: number): Promise<Envelope[]>;
  /** Runs `action`, then returns every notification it caused, as the broker delivered them. */
  during(action: () => Promise<unknown>): Promise<Envelope[]>;
  close(): Promise<void>;
}

const NOTIFICATION = `${ROOT}/notification`;
const ENVELOPE_KEYS = ["notification_data", "notification_id", "notification_type", "version_number"];

/** Points the test agent's `request`, `token` and `call` at its listening socket. */
function overTheSocket(t: TestAgent): Central["call"] {
  const port = t.agent.address?.port;
  if (port === undefined) throw new Error("the central's agent is not listening");
  const request = socketRequest(port);
  let cached: string | undefined;
  const call: Central["call"] = async (method, path, body, headers = {}) => {
    const own: Record<string, string> = { Authorization: `Bearer ${await t.token()}` };
    if (body !== undefined) own["Content-Type"] = "application/json";
    return request(path, {
      method,
      headers: { ...own, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
  t.request = request;
  t.token = async () => {
    if (cached) return cached;
    const res = await request(TOKEN_PATH, passwordGrant());
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    cached = ((await res.json()) as { access_token: string }).access_token;
    return cached;
  };
  t.call = (method, path, body) => call(method, path, body);
  return call;
}

/**
 * The notifications the broker delivered, once they are all that is committed: each in the envelope
 * of the spec (exactly its four keys, version 1.5.0), in the outbox's order, none missing or twice.
 */
async function delivered(t: TestAgent, broker: Subscriber): Promise<Envelope[]> {
  const expected = committed(t).map((e) => (JSON.parse(e) as Envelope).notification_id);
  await broker.waitFor(
    `${expected.length} notifications`,
    () => broker.on(NOTIFICATION).length >= expected.length,
  );
  const got = broker.on(NOTIFICATION).map((m) => JSON.parse(m.payload) as Envelope);
  expect(got.map((n) => n.notification_id)).toEqual(expected);
  // docs/decisions.md#service-requests-pick-pickpack-put: unique, never reused (and never the variant name notification_seq)
  expect(new Set(expected).size).toBe(expected.length);
  for (const n of got) {
    expect(Object.keys(n).sort()).toEqual(ENVELOPE_KEYS);
    expect(n.version_number).toBe("1.5.0");
  }
  return got;
}

/** `overrides` are agent configuration (e.g. `http`); the embedded broker and the station ids are fixed. */
export async function startCentral(overrides: Record<string, unknown> = {}): Promise<Central> {
  const mqtt = { url: "embedded", embeddedPort: 0, ...FAST };
  const http = { host: "127.0.0.1", port: 0, ...(overrides.http as object | undefined) };
  const t = await startTestAgent({ site: SITE, ppsId: PPS, mqtt, ...overrides, http }, { listen: true });
  const call = overTheSocket(t);
  const broker = await subscribe(t.agent.sync.url as string, [`${ROOT}/#`], CENTRAL);
  let seen = 0;
  const central: Central = {
    t,
    broker,
    base: `http://127.0.0.1:${t.agent.address?.port}`,
    call,
    async mark() {
      seen = (await delivered(t, broker)).length;
    },
    async since() {
      const all = await delivered(t, broker);
      const out = all.slice(seen);
      seen = all.length;
      return out;
    },
    async sinceAtLeast(count) {
      const got: Envelope[] = [];
      const end = Date.now() + deadline(5000);
      while (got.length < count && Date.now() < end) {
        got.push(...(await central.since()));
        if (got.length < count) await new Promise((r) => setTimeout(r, 10));
      }
      return got;
    },
    async during(action) {
      await central.mark();
      await action();
      return central.since();
    },
    async close() {
      await broker.close();
      await t.close();
    },
  };
  return central;
}
