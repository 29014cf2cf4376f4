/**
 * The embedded broker by role (docs/mqtt.md#roles), over real sockets: `integration` reads only the
 * station's branch, `admin` also `$SYS` and any wildcard, `operator` is refused at connect (CONNACK 5).
 */
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../../src/domain/roles.js";
import { ADMIN, ADMIN_PASSWORD, type TestAgent } from "../../support/agent.js";
import { agentOn, ROOT } from "../../support/sync/agent.js";
import { granted, tryConnect } from "./support/broker-probe.js";

const PASSWORD = "a-long-test-password";

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
