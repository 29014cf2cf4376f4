/**
 * The embedded broker's credentials and ACL over real sockets (docs/mqtt.md#embedded-broker-credentials-and-acl):
 * nobody without a user's password connects, central publishes only requests and reads only the
 * station's own topics, and nobody takes over the agent's client id.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import type { IClientOptions, MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfigOrExplain } from "../../../src/config/config.load.js";
import { isStartError } from "../../../src/start-error.js";
import { ADMIN, startTestAgent, type TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { LogLines } from "../../support/log-lines.js";
import { agentOn, ask, CENTRAL, committed, FAST, notify, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";
import { granted, tryConnect } from "./support/broker-probe.js";

const MOSQUITTO_CLIENTS = existsSync("/usr/bin/mosquitto_sub") && existsSync("/usr/bin/mosquitto_pub");
const AGENT_CLIENT_ID = `pps-edge-${SITE}-${PPS}`;
const READABLE = [`${ROOT}/connection`, `${ROOT}/notification`, `${ROOT}/state/#`, `${ROOT}/response/#`];

async function connected(url: string, opts: IClientOptions = CENTRAL): Promise<MqttClient> {
  const { code, client } = await tryConnect(url, opts);
  expect(code).toBe(0);
  return client as MqttClient;
}

function online(sub: Subscriber): Array<{ state: string; session: number }> {
  return sub.on(`${ROOT}/connection`).map((m) => JSON.parse(m.payload) as { state: string; session: number });
}

describe("the embedded broker's credentials and ACL", () => {
  let t: TestAgent;
  let url: string;
  let central: Subscriber;

  beforeAll(async () => {
    t = await agentOn("embedded");
    url = t.agent.sync.url as string;
    central = await subscribe(url, READABLE, CENTRAL);
    await central.waitFor("ONLINE", () => online(central).some((c) => c.state === "ONLINE"));
  });
  afterAll(async () => {
    await central?.close();
    await t?.close();
  });

  it("refuses clients without credentials, with a wrong password or an unknown user", async () => {
    expect((await tryConnect(url, {})).code).toBe(5);
    expect((await tryConnect(url, { username: ADMIN, password: "wrong-password-123" })).code).toBe(4);
    expect((await tryConnect(url, { username: "nobody", password: CENTRAL.password })).code).toBe(4);
  });

  it("throttles logins like the token endpoint: after 5 wrong passwords even the right one is refused", async () => {
    const password = "bob-password-1234";
    await t.agent.services.auth.addUser("bob", password, "integration");
    for (let i = 0; i < 5; i++)
      expect((await tryConnect(url, { username: "bob", password: "wrong-password-123" })).code).toBe(4);
    expect((await tryConnect(url, { username: "bob", password })).code).toBe(4);
    t.clock.now += 15 * 60_000;
    const { code, client } = await tryConnect(url, { username: "bob", password });
    expect(code).toBe(0);
    await client?.endAsync();
  });

  it("lets an API user act as central: a request gets its response, notifications arrive", async () => {
    const answer = JSON.parse(
      await ask(central, "rack_presented", { transaction: "sec-1", msu: "M1", locations: ["S1"] }),
    );
    expect(answer).toMatchObject({ transaction: "sec-1", status: "ok" });
    notify(t, "order_information", { externalServiceRequestId: "SEC-1" });
    await central.waitFor("the notification", () =>
      central.on(`${ROOT}/notification`).some((m) => m.payload.includes("SEC-1")),
    );
  });

  it("drops central's publishes to the agent's topics and closes that connection; nothing changes", async () => {
    const before = committed(t).length;
    for (const topic of [
      `${ROOT}/notification`,
      `${ROOT}/connection`,
      `${ROOT}/state/station`,
      `${ROOT}/response/rack_presented`,
      `ppsedge/v1/${SITE}/8/request/rack_presented`,
    ]) {
      const thief = await connected(url);
      const closed = new Promise<void>((ok) => thief.once("close", () => ok()));
      thief.publish(topic, JSON.stringify({ forged: "FORGED", state: "OFFLINE" }), { qos: 0, retain: true });
      await closed;
      thief.end(true);
    }
    // a round trip after the forgeries: anything they had caused would have arrived by now
    await ask(central, "rack_presented", { transaction: "sec-2", msu: "M1", locations: ["S1"] });
    expect(central.messages.filter((m) => m.payload.includes("FORGED"))).toEqual([]);
    expect(committed(t).length).toBe(before);
    const late = await subscribe(url, [`${ROOT}/connection`, `${ROOT}/state/station`], CENTRAL);
    await late.waitFor("retained state", () => late.messages.length >= 2);
    expect(late.messages.some((m) => m.payload.includes("FORGED"))).toBe(false);
    expect(online(late).at(-1)?.state).toBe("ONLINE");
    await late.close();
  });

  it("refuses subscriptions outside the station's branch (SUBACK 0x80) and delivers no request to central", async () => {
    // the central system's role; an admin may read beyond the branch (broker-roles.test.ts)
    const password = "ingrid-password-1234";
    await t.agent.services.auth.addUser("ingrid", password, "integration");
    const client = await connected(url, { username: "ingrid", password });
    const outside = [
      "#",
      "$SYS/#",
      "ppsedge/#",
      "ppsedge/v1/#",
      `ppsedge/v1/${SITE}/8/#`,
      `ppsedge/v1/+/${PPS}/#`,
    ];
    expect(await granted(client, [...outside, `${ROOT}/request/#`])).toEqual(
      outside.map(() => 128).concat(128),
    );
    expect(await granted(client, [...READABLE, `${ROOT}/#`])).toEqual([1, 1, 1, 1, 1]);
    const seen: string[] = [];
    client.on("message", (topic) => seen.push(topic));
    await ask(central, "rack_presented", { transaction: "sec-3", msu: "M1", locations: ["S1"] });
    await until("the response seen", () => seen.includes(`${ROOT}/response/rack_presented`));
    expect(seen.filter((s) => s.includes("/request/"))).toEqual([]);
    await client.endAsync(true);
  });

  it("refuses the agent's client id to anyone else; the agent stays connected and publishing", async () => {
    const session = online(central).at(-1)?.session;
    expect((await tryConnect(url, { clientId: AGENT_CLIENT_ID, ...CENTRAL })).code).toBe(5);
    expect((await tryConnect(url, { clientId: AGENT_CLIENT_ID })).code).toBe(5);
    expect(
      (await tryConnect(url, { clientId: AGENT_CLIENT_ID, username: AGENT_CLIENT_ID, password: "guess" }))
        .code,
    ).toBe(5);
    notify(t, "order_information", { externalServiceRequestId: "SEC-4" });
    await central.waitFor("a notification after the attempts", () =>
      central.on(`${ROOT}/notification`).some((m) => m.payload.includes("SEC-4")),
    );
    expect(t.agent.sync.status().connected).toBe(true);
    expect(online(central).map((c) => c.state)).toEqual(["ONLINE"]);
    expect(online(central).at(-1)?.session).toBe(session);
  });
});

/**
 * The mosquitto lines of docs/mqtt.md#watching-the-station (`-u admin -P …`): the retained `connection`
 * arrives first (the subscription is in place), then the request is sent and its response read.
 */
async function mosquittoRoundTrip(port: number): Promise<string[]> {
  const auth = ["-h", "127.0.0.1", "-p", String(port), "-u", CENTRAL.username, "-P", CENTRAL.password];
  const topics = ["-t", `${ROOT}/connection`, "-t", `${ROOT}/response/#`];
  const sub = spawn("mosquitto_sub", [...auth, "-v", "-C", "2", "-W", "10", ...topics]);
  const lines: string[] = [];
  let first: () => void = () => {};
  const subscribed = new Promise<void>((ok) => {
    first = ok;
  });
  sub.stdout.on("data", (d: Buffer) => {
    lines.push(...d.toString().split("\n").filter(Boolean));
    first();
  });
  const exited = new Promise<void>((ok) => sub.once("exit", () => ok()));
  await subscribed;
  const request = JSON.stringify({ transaction: "cli-1", msu: "M1", locations: ["S1", "S2"] });
  await promisify(execFile)("mosquitto_pub", [
    ...auth,
    "-q",
    "1",
    "-t",
    `${ROOT}/request/rack_presented`,
    "-m",
    request,
  ]);
  await exited;
  return lines;
}

describe.skipIf(!MOSQUITTO_CLIENTS)("the docs/mqtt.md#watching-the-station commands on the broker", () => {
  it("subscribe and publish a request with the admin user's credentials", async () => {
    const t = await agentOn("embedded");
    try {
      const lines = await mosquittoRoundTrip(Number(new URL(t.agent.sync.url as string).port));
      expect(lines[0]).toMatch(new RegExp(`^${ROOT}/connection \\{"state":"ONLINE"`));
      expect(lines[1]).toBe(
        `${ROOT}/response/rack_presented {"transaction":"cli-1","status":"ok","data":{"ok":true},"error":null}`,
      );
    } finally {
      await t.close();
    }
  });
});

describe("anonymous clients on the embedded broker", () => {
  it("are let in with the central system's rights when configured, on loopback, with a warning", async () => {
    const lines = new LogLines();
    const t = await startTestAgent(
      {
        site: SITE,
        ppsId: PPS,
        log: { level: "info" },
        mqtt: { url: "embedded", embeddedPort: 0, embeddedAnonymous: true, ...FAST },
      },
      { listen: true, logTo: lines },
    );
    try {
      const client = await connected(t.agent.sync.url as string, {});
      expect(await granted(client, ["#", `${ROOT}/notification`])).toEqual([128, 1]);
      await client.endAsync(true);
      expect(lines.text()).toMatch(/"level":"warn".*without credentials \(mqtt\.embeddedAnonymous\)/);
    } finally {
      await t.close();
    }
  });

  it("are refused at start when the embedded broker listens beyond loopback", () => {
    const env = { PPS_EDGE_MQTT_EMBEDDED_ANONYMOUS: "true", PPS_EDGE_MQTT_EMBEDDED_HOST: "0.0.0.0" };
    let error: unknown;
    try {
      loadConfigOrExplain({ env });
    } catch (e) {
      error = e;
    }
    expect(isStartError(error)).toBe(true);
    expect((error as Error).message).toMatch(/loopback \(mqtt\.embeddedAnonymous\)/);
    expect(
      loadConfigOrExplain({ env: { ...env, PPS_EDGE_MQTT_EMBEDDED_HOST: "127.0.0.1" } }).config.mqtt,
    ).toMatchObject({ embeddedAnonymous: true });
  });
});
