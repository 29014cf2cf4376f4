/**
 * The maintainer's requests over the embedded broker (docs/mqtt.md#requests-and-responses):
 * `health_check` answers what `pps-edge status` says, afresh each time (read-only, not kept in the
 * inbox); `replay_dead_letters` is the admin route's replay, for admins only: the broker refuses it to an
 * integration user. The retained `state/station` carries the agent's version.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../../src/version.js";
import type { TestAgent } from "../../support/agent.js";
import { agentOn, ask, CENTRAL, notify, ROOT } from "../../support/sync/agent.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";
import { tryConnect } from "./support/broker-probe.js";

interface Answer {
  transaction: string;
  status: string;
  data: Record<string, unknown>;
  error: { code: string } | null;
}

describe("health_check and replay_dead_letters over MQTT", () => {
  let t: TestAgent;
  let admin: Subscriber;
  beforeAll(async () => {
    t = await agentOn("embedded");
    admin = await subscribe(
      t.agent.sync.url as string,
      [`${ROOT}/response/#`, `${ROOT}/state/station`],
      CENTRAL,
    );
  });
  afterAll(async () => {
    await admin?.close();
    await t?.close();
  });

  it("health_check answers the status, afresh for a repeated transaction", async () => {
    const first = JSON.parse(await ask(admin, "health_check", { transaction: "h-1" })) as Answer;
    expect(first).toMatchObject({ transaction: "h-1", status: "ok", error: null });
    expect(first.data).toMatchObject({ version: VERSION, running: true, pid: process.pid, mode: "pick" });
    expect(Object.keys(first.data.checks as object)).toEqual([
      "database",
      "storage",
      "storage_budget",
      "devices",
      "outbox",
      "mqtt",
      "webhooks",
    ]);
    expect((first.data.checks as Record<string, { detail: string }>).mqtt?.detail).toMatch(/connected/);
    notify(t, "order_information", { n: 1 });
    const again = JSON.parse(await ask(admin, "health_check", { transaction: "h-1" })) as Answer;
    expect(again.status).toBe("ok");
    expect((again.data.outbox as { lastSeq: number }).lastSeq).toBe(
      (first.data.outbox as { lastSeq: number }).lastSeq + 1,
    );
    const bad = JSON.parse(await ask(admin, "health_check", { transaction: "h-2", extra: 1 })) as Answer;
    expect(bad).toMatchObject({ status: "error", error: { code: "validation_failed" } });
  });

  it("state/station carries the agent's version", async () => {
    await admin.waitFor("state/station", (m) => m.some((x) => x.topic === `${ROOT}/state/station`));
    const state = admin.on(`${ROOT}/state/station`).at(-1)?.payload as string;
    expect(JSON.parse(state)).toMatchObject({ version: VERSION });
  });

  it("replay_dead_letters: an admin's is answered like the route, an unknown seq refused", async () => {
    const none = JSON.parse(await ask(admin, "replay_dead_letters", { transaction: "r-1" })) as Answer;
    expect(none).toMatchObject({ status: "ok", data: { replayed: [] } });
    const unknown = JSON.parse(
      await ask(admin, "replay_dead_letters", { transaction: "r-2", seqs: [999] }),
    ) as Answer;
    expect(unknown).toMatchObject({ status: "error", error: { code: "not_found" } });
  });

  it.each(["replay_dead_letters", "backup"])(
    "the broker refuses %s to an integration user: the connection is closed",
    async (request) => {
      if (!t.agent.services.auth.hasUser("central"))
        await t.agent.services.auth.addUser("central", "a-long-test-password", "integration");
      const { code, client } = await tryConnect(t.agent.sync.url as string, {
        username: "central",
        password: "a-long-test-password",
      });
      expect(code).toBe(0);
      const c = client as MqttClient;
      const closed = new Promise<void>((ok) => c.once("close", () => ok()));
      const before = admin.on(`${ROOT}/response/${request}`).length;
      c.publish(`${ROOT}/request/${request}`, JSON.stringify({ transaction: `r-3-${request}` }), { qos: 1 });
      await closed;
      c.end(true);
      // the refused request never reached the agent: an admin's health check after it finds no answer to it
      expect(
        (JSON.parse(await ask(admin, "health_check", { transaction: `h-3-${request}` })) as Answer).status,
      ).toBe("ok");
      expect(admin.on(`${ROOT}/response/${request}`).length).toBe(before);
      if (request === "backup") expect(existsSync(join(t.dir, "backups"))).toBe(false);
    },
  );
});
