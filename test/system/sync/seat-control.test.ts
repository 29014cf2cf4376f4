/**
 * What central tells a seat, over a real Mosquitto broker started on loopback (docs/mqtt.md#telling-a-seat):
 * central pauses seat front with `request/pause_seat`, the answer comes on `response/pause_seat`, the
 * `seat_paused` notification on `notification`; the seat refuses scans (seat_paused) until central's
 * `request/resume_seat`, which is the `seat_resumed` notification. A pause made while the broker is down
 * reaches central once it is back (the outbox). The mode, a message and a sign-out over the same broker,
 * and bad input answered with its code and field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { agentOn, ask, CENTRAL, ROOT } from "../../support/sync/agent.js";
import { startMosquitto, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

let broker: TestBroker;
let t: TestAgent;
let central: Subscriber;
let n = 0;

type Answer = {
  transaction: string;
  status: "ok" | "error";
  data: Record<string, unknown>;
  error: { code: string; errors: Array<{ path: string }> } | null;
};
const request = async (name: string, body: Record<string, unknown>) => {
  n += 1;
  return JSON.parse(await ask(central, name, { transaction: `seat-${n}`, ...body })) as Answer;
};
/** The notifications central received, each once (a consumer deduplicates on notification_id). */
function notifications() {
  const seen = new Set<string>();
  const out: Array<{ notification_type: string; notification_data: Record<string, unknown> }> = [];
  for (const m of central.on(`${ROOT}/notification`)) {
    const n = JSON.parse(m.payload) as (typeof out)[number] & { notification_id: string };
    if (seen.has(n.notification_id)) continue;
    seen.add(n.notification_id);
    out.push(n);
  }
  return out;
}
const seatNotes = () => notifications().filter((x) => x.notification_type.startsWith("seat_"));
const scan = (barcode: string) => {
  t.clock.now += 1000;
  return t.call("POST", "/station/scans", { seat: "front", barcode });
};

beforeAll(async () => {
  // a persistent broker and a persistent session for central (docs/mqtt.md#central-consumers): what the
  // station publishes while central is reconnecting after a broker restart waits for it there
  broker = await startMosquitto({ persistence: true });
  central = await subscribe(
    broker.url,
    [`${ROOT}/response/#`, `${ROOT}/notification`, `${ROOT}/connection`],
    {
      ...CENTRAL,
      clientId: "central-seat-control",
      clean: false,
    },
  );
  t = await agentOn(broker);
  await central.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
});
afterAll(async () => {
  await central?.close();
  await t?.close();
  await broker?.close();
});

describe("central tells a seat over Mosquitto", () => {
  it("pause_seat: answered, a seat_paused notification, the seat's scans refused with seat_paused", async () => {
    const a = await request("pause_seat", { seat: "front", reason: "Stock count in aisle 4", by: "WMS" });
    expect(a).toMatchObject({
      status: "ok",
      error: null,
      data: {
        seat: "front",
        paused: true,
        sources: [{ source: "central", by: "WMS", reason: "Stock count in aisle 4" }],
      },
    });
    await central.waitFor("seat_paused", () => seatNotes().length === 1);
    expect(seatNotes()[0]).toMatchObject({
      notification_type: "seat_paused",
      notification_data: { seat: "front", change: { action: "pause", source: "central", by: "WMS" } },
    });
    const refused = await scan("BADGE-alice");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ details: { reason: "seat_paused" } });
  });

  it("resume_seat: answered, a seat_resumed notification, the seat takes scans again", async () => {
    expect(await request("resume_seat", { seat: "front" })).toMatchObject({
      status: "ok",
      data: { paused: false },
    });
    await central.waitFor("seat_resumed", () => seatNotes().length === 2);
    expect(seatNotes()[1]?.notification_type).toBe("seat_resumed");
    expect((await scan("BADGE-alice")).status).toBe(200);
  });

  it("a pause while the broker is down reaches central once it is back, in order", async () => {
    await broker.stop();
    await t.call("POST", "/station/seats/front/pause", { reason: "Broker maintenance" });
    await broker.start();
    await central.waitFor("the pause made offline", () => seatNotes().length === 3, 30_000);
    expect(seatNotes()[2]).toMatchObject({
      notification_type: "seat_paused",
      notification_data: { sources: [{ source: "central", reason: "Broker maintenance" }] },
    });
    expect(await request("resume_seat", { seat: "front" })).toMatchObject({ status: "ok" });
  });

  it("set_mode, send_message and sign_out answer over the broker; bad input names its field", async () => {
    expect(await request("set_mode", { mode: "audit" })).toMatchObject({
      status: "ok",
      data: { mode: "audit" },
    });
    expect(await request("send_message", { seat: "front", text: "Shift ends at 14:00" })).toMatchObject({
      status: "ok",
      data: { seat: "front" },
    });
    expect(await request("sign_out", { seat: "front" })).toMatchObject({
      status: "ok",
      data: { seat: "front", operator: "alice" },
    });
    const bad = await request("pause_seat", { seat: "front", reason: "" });
    expect(bad).toMatchObject({ status: "error", data: {}, error: { code: "validation_failed" } });
    expect(bad.error?.errors.map((e) => e.path)).toEqual(["reason"]);
    const unknown = await request("send_message", { seat: "side", text: "hi" });
    expect(unknown).toMatchObject({
      status: "error",
      error: { code: "not_found", errors: [{ path: "seat" }] },
    });
  });
});
