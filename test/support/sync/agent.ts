import { ADMIN, ADMIN_PASSWORD, startTestAgent, type TestAgent } from "../agent.js";
import type { TestBroker } from "./brokers.js";
import { type Subscriber, subscribe } from "./subscriber.js";

export const SITE = "dc1";
export const PPS = "7";
export const ROOT = `ppsedge/v1/${SITE}/${PPS}`;

/**
 * The central system's credentials: an API user (the admin the first start creates). The embedded
 * broker requires them; the test brokers outside the agent let anyone in and ignore them.
 */
export const CENTRAL = { username: ADMIN, password: ADMIN_PASSWORD };

/** Fast reconnects so that outage tests take milliseconds, not the production seconds. */
export const FAST = {
  reconnectMinMs: 20,
  reconnectMaxMs: 200,
  reconnectFlappingMaxMs: 200,
  keepaliveSeconds: 5,
  connectTimeoutMs: 2000,
};

/** An agent listening on a free HTTP port and syncing to `broker` (or to its own embedded broker). */
export function agentOn(
  broker: Pick<TestBroker, "url" | "protocolVersion"> | "embedded",
  mqtt: Record<string, unknown> = {},
): Promise<TestAgent> {
  const target =
    broker === "embedded"
      ? { url: "embedded", embeddedPort: 0 }
      : { url: broker.url, protocolVersion: broker.protocolVersion };
  return startTestAgent({ site: SITE, ppsId: PPS, mqtt: { ...target, ...FAST, ...mqtt } }, { listen: true });
}

/** Appends notifications the way a use case does: one transaction per change. */
export function notify(t: TestAgent, type: "order_information" | "bin_complete", data: unknown): void {
  t.agent.services.unitOfWork.run((tx) => tx.notify(type, data));
}

/** The outbox as committed: exactly what must arrive, in order. */
export function committed(t: TestAgent): string[] {
  return t.agent.services.repos.outbox.after(0, 1_000_000).map((r) => r.envelope);
}

/**
 * What a consumer that dedupes on notification_id sees: every id once, in the order first seen.
 * Throws on a gap (an id arriving before its predecessor was ever seen) or on reordering.
 */
export function inOrderWithoutGaps(payloads: string[]): string[] {
  const seen: string[] = [];
  let highest = 0;
  for (const p of payloads) {
    const id = (JSON.parse(p) as { notification_id: string }).notification_id;
    const seq = Number(id.split(".").pop());
    if (seq > highest + 1) throw new Error(`gap: ${id} arrived before seq ${highest + 1}`);
    if (seq === highest + 1) {
      highest = seq;
      seen.push(p);
    }
  }
  return seen;
}

/** Publishes `request/<name>` and resolves with the next message on `response/<name>` (raw text). */
export async function ask(central: Subscriber, name: string, payload: unknown): Promise<string> {
  const topic = `${ROOT}/response/${name}`;
  const before = central.on(topic).length;
  await central.publish(
    `${ROOT}/request/${name}`,
    typeof payload === "string" ? payload : JSON.stringify(payload),
  );
  await central.waitFor(`a response on ${name}`, () => central.on(topic).length > before);
  return central.on(topic)[before]?.payload as string;
}

/**
 * The central system on the agent's broker: subscribed to `<ROOT>/<topic>` for each of `topics` (the
 * responses by default) and to `connection`, returned once the agent has said it is ONLINE.
 */
export async function centralOn(t: TestAgent, topics: string[] = ["response/#"]): Promise<Subscriber> {
  const central = await subscribe(
    t.agent.sync.url as string,
    [...topics.map((x) => `${ROOT}/${x}`), `${ROOT}/connection`],
    CENTRAL,
  );
  await central.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
  return central;
}
