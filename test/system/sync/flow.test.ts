import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SCRAPE, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { type Json, kinds, ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";
import { agentOn, ask, CENTRAL, committed, ROOT } from "../../support/sync/agent.js";
import { BROKERS, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

const NOTIFICATION = `${ROOT}/notification`;

for (const target of [...BROKERS.map((b) => b.name), "embedded" as const]) {
  describe(`a full pick flow over MQTT (${target})`, () => {
    let broker: TestBroker | undefined;
    let t: TestAgent;
    let central: Subscriber;
    let before = 0;

    beforeAll(async () => {
      broker =
        target === "embedded"
          ? undefined
          : await (BROKERS.find((b) => b.name === target)?.start() as Promise<TestBroker>);
      t = await agentOn(broker ?? "embedded");
      central = await subscribe(t.agent.sync.url as string, [`${ROOT}/#`], CENTRAL);
      await central.waitFor("ONLINE", (m) =>
        m.some((x) => x.topic === `${ROOT}/connection` && x.payload.includes('"ONLINE"')),
      );
      await seedItem(t, "A");
      await seedItem(t, "B");
      await setStock(t, "S1", "M1", "A", 10);
      await setStock(t, "S2", "M1", "B", 5);
      await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
      before = committed(t).length;
    });
    afterAll(async () => {
      await central?.close();
      await t?.close();
      await broker?.close();
    });

    it("central creates the order and presents the rack over MQTT; every notification arrives in order, byte for byte", async () => {
      const created = JSON.parse(
        await ask(central, "create_service_request", {
          transaction: "c-1",
          ...pickBody("P1", [pickLine("P1-L1", "A", 3), pickLine("P1-L2", "B", 2)]),
        }),
      ) as Json;
      expect(created).toMatchObject({ transaction: "c-1", status: "ok", error: null });
      expect(created.data).toMatchObject({ externalServiceRequestId: "P1", type: "PICK", state: "CREATED" });

      const rack = JSON.parse(
        await ask(central, "rack_presented", { transaction: "r-1", msu: "M1", locations: ["S1", "S2"] }),
      );
      expect(rack).toEqual({ transaction: "r-1", status: "ok", data: { ok: true }, error: null });

      for (const [line, location, quantity] of [
        ["P1-L1", "S1", 2],
        ["P1-L1", "S1", 1],
        ["P1-L2", "S2", 2],
      ] as const) {
        await ok(
          t.call("POST", "/station/picks", { externalServiceRequestId: "P1", line, location, quantity }),
        );
      }

      const expected = committed(t);
      await central.waitFor(
        `${expected.length} notifications`,
        () => central.on(NOTIFICATION).length >= expected.length,
      );
      const got = central.on(NOTIFICATION);
      expect(got.map((m) => m.payload)).toEqual(expected);
      expect(got.every((m) => !m.retain)).toBe(true);

      const flow = got.slice(before).map((m) => JSON.parse(m.payload));
      expect(kinds(flow)).toEqual([
        ["order_information", "fulfillable"],
        ["order_information", "cancellation_locked"],
        ["order_information", "pick_started"],
        ["order_information", "pick_started"],
        ["order_information", "complete"],
        ["bin_complete", undefined],
      ]);
      expect(Object.keys(flow[0])).toEqual([
        "notification_type",
        "version_number",
        "notification_id",
        "notification_data",
      ]);
      expect(flow.map((e) => e.notification_id)).toEqual(
        Array.from({ length: 6 }, (_, i) => `dc1.7.${before + i + 1}`),
      );
      expect(flow[0]).toMatchObject({
        version_number: "1.5.0",
        notification_data: { externalServiceRequestId: "P1" },
      });
    });

    it("keeps the order's full current state retained on state/PICK/P1", async () => {
      const view = await ok(t.call("GET", `${SR}/P1?type=PICK`));
      await central.waitFor("the complete state", () =>
        central.on(`${ROOT}/state/PICK/P1`).some((m) => JSON.parse(m.payload).state === "complete"),
      );
      const last = central.on(`${ROOT}/state/PICK/P1`).at(-1);
      expect(JSON.parse(last?.payload as string)).toEqual(view);
      // A consumer arriving now reads it from the broker.
      const late = await subscribe(t.agent.sync.url as string, [`${ROOT}/state/PICK/+`], CENTRAL);
      await late.waitFor("retained P1", (m) => m.length > 0);
      expect(late.messages[0]?.retain).toBe(true);
      expect(JSON.parse(late.messages[0]?.payload as string)).toEqual(view);
      await late.close();
    });

    it("marks them delivered on PUBACK; GET /station/notifications still lists them", async () => {
      const total = committed(t).length;
      await vi.waitFor(
        async () => {
          const res = await t.call("GET", `/station/notifications?after=0&limit=1000`);
          const body = (await res.json()) as {
            notifications: Array<{ delivered: boolean }>;
            lastSeq: number;
          };
          expect(body.lastSeq).toBe(total);
          expect(body.notifications.every((n) => n.delivered)).toBe(true);
        },
        { timeout: deadline(5000), interval: 20 },
      );
      const metrics = await (await t.request("/metrics", SCRAPE)).text();
      expect(metrics).toMatch(new RegExp(`^mqtt_published_total ${total}$`, "m"));
      expect(metrics).toMatch(/^outbox_undelivered 0$/m);
      expect(metrics).toMatch(/^mqtt_connected 1$/m);
      expect(metrics).toMatch(/^mqtt_requests_total\{name="create_service_request",outcome="ok"\} 1$/m);
    });

    it("published ONLINE (retained, with a session number) and the station state before any notification", () => {
      const online = central.on(`${ROOT}/connection`)[0];
      const c = JSON.parse(online?.payload as string);
      expect(c).toMatchObject({ state: "ONLINE", session: expect.any(Number) });
      expect(c.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const station = JSON.parse(central.on(`${ROOT}/state/station`)[0]?.payload as string);
      expect(station).toMatchObject({
        site: "dc1",
        mode: "pick",
        seats: [{ seat: "back" }, { seat: "front" }],
      });
      expect(station.pickQueue).toBeUndefined();
      const topics = central.messages.map((m) => m.topic);
      expect(topics.indexOf(`${ROOT}/state/station`)).toBeLessThan(topics.indexOf(NOTIFICATION));
    });
  });
}
