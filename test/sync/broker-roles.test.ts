/**
 * The embedded broker by role (docs/mqtt.md#roles), over real sockets: `integration` reads only the
 * station's branch, `admin` also `$SYS` and any wildcard, `operator` is refused at connect (CONNACK 5).
 */
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../src/domain/roles.js";
import { ADMIN, ADMIN_PASSWORD, type TestAgent } from "../helpers/agent.js";
import { agentOn, ROOT } from "./support/agent.js";

const PASSWORD = "a-long-test-password";

async function tryConnect(url: string, opts: IClientOptions): Promise<{ code: number; client?: MqttClient }> {
  const client = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  return new Promise((ok) => {
    client.once("connect", () => ok({ code: 0, client }));
    client.once("error", (err) => {
      client.end(true);
      ok({ code: (err as Error & { code?: number }).code ?? -1 });
    });
  });
}

/** Granted QoS per filter (128: refused). */
async function granted(client: MqttClient, filters: string[]): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos: 1 })).map((s) => s.qos);
  } catch (e) {
    const suback = (e as { packet?: { granted?: number[] } }).packet;
    if (!suback?.granted) throw e;
    return suback.granted;
  }
}

describe("the embedded broker's roles", () => {
  let t: TestAgent;
  let url: string;
  const as = async (role: Role) => {
    const username = `${role}-user`;
    if (!t.agent.services.auth.hasUser(username))
      await t.agent.services.auth.addUser(username, PASSWORD, role);
    return tryConnect(url, { username, password: PASSWORD });
  };

  beforeAll(async () => {
    t = await agentOn("embedded");
    url = t.agent.sync.url as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses an operator at connect: not authorized (5)", async () => {
    expect((await as("operator")).code).toBe(5);
  });

  it("refuses integration $SYS/# and #, grants it the branch", async () => {
    const { code, client } = await as("integration");
    expect(code).toBe(0);
    expect(await granted(client as MqttClient, ["$SYS/#", "#", "ppsedge/#", `${ROOT}/#`])).toEqual([
      128, 128, 128, 1,
    ]);
    await client?.endAsync(true);
  });

  it("grants an admin $SYS/# and #, the first start's admin too", async () => {
    for (const opts of [{ username: ADMIN, password: ADMIN_PASSWORD }, undefined]) {
      const { code, client } = opts ? await tryConnect(url, opts) : await as("admin");
      expect(code).toBe(0);
      expect(await granted(client as MqttClient, ["$SYS/#", "#", "ppsedge/#"])).toEqual([1, 1, 1]);
      await client?.endAsync(true);
    }
  });
});
