/**
 * Training reaches nobody (docs/station.md#training): an agent on its embedded broker, with a subscriber
 * on `#` and a webhook receiver, and seat front in training. A pick and a put at the training seat, over
 * the real HTTP server, make notifications in the training station's outbox; none of them is published
 * or delivered: what the broker and the receiver get, up to a notification of the station's own made
 * after the training, is the station's outbox and nothing with the training's names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { CENTRAL, FAST, PPS, SITE } from "../../support/sync/agent.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";
import { type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { commit, endpoint, FAST_WEBHOOKS, realClock } from "../webhooks/support.js";

let t: TestAgent;
let central: Subscriber;
let receiver: Receiver;
let base: string;

async function tap(action: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${base}/station/seats/front/screen/actions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await t.token()}`, "Content-Type": "application/json" },
    body: JSON.stringify(action),
  });
  expect(res.status, await res.text()).toBe(200);
}

async function trainingReset(mode: string): Promise<void> {
  const res = await fetch(`${base}/station/training/reset`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await t.token()}`, "Content-Type": "application/json" },
    body: JSON.stringify({ mode }),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** The training station's outbox: what it would have sent. */
const trainingOutbox = () =>
  (t.agent.training.database()?.prepare("SELECT envelope FROM outbox").all() ?? []) as Array<{
    envelope: string;
  }>;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestAgent(
    {
      site: SITE,
      ppsId: PPS,
      mqtt: { url: "embedded", embeddedPort: 0, ...FAST },
      webhooks: { ...FAST_WEBHOOKS, endpoints: [endpoint("central", receiver.url)] },
      station: { trainingSeats: ["front"] },
    },
    { listen: true },
  );
  realClock(t);
  base = `http://127.0.0.1:${t.agent.address?.port}`;
  central = await subscribe(t.agent.sync.url as string, ["#"], CENTRAL);
  await central.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
}, deadline(60_000));
afterAll(async () => {
  await central?.close();
  await t?.close();
  await receiver?.close();
});

describe("training publishes nothing", { timeout: deadline(60_000) }, () => {
  it("a training pick and put reach neither the broker nor a webhook", async () => {
    await tap({ type: "login", user: "trainee" });
    await tap({ type: "scan", barcode: "TRAIN-100" });
    await tap({ type: "confirm" });
    await trainingReset("put");
    await tap({ type: "login", user: "trainee" });
    for (const barcode of ["TRAIN-TOTE-1", "TRAIN-100", "TRAIN-S1"]) await tap({ type: "scan", barcode });
    await tap({ type: "confirm" });
    // the training station did make notifications: they stayed in its own outbox
    expect(trainingOutbox().some((r) => r.envelope.includes("TRAIN-PUT-1"))).toBe(true);

    // a notification of the station's own, after the training: once it is there, so would the training's be
    commit(t, 1);
    await central.waitFor("the station's notification", (m) => m.some((x) => x.payload.includes('"R-0"')));
    await receiver.waitFor(1);
    await until("the station's notification delivered", () =>
      receiver.accepted.some((r) => r.body.includes('"R-0"')),
    );

    expect(central.messages.filter((m) => m.payload.includes("TRAIN-")).map((m) => m.topic)).toEqual([]);
    expect(receiver.requests.filter((r) => r.body.includes("TRAIN-")).map((r) => r.type)).toEqual([]);
    const own = t.agent.services.repos.outbox.after(0, 100).map((row) => row.envelope);
    expect(receiver.accepted.map((r) => r.body)).toEqual(own);
    expect(own.some((e) => e.includes("TRAIN-"))).toBe(false);
  });
});
