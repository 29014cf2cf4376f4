/**
 * The embedded broker's TLS listener (`mqtt.embeddedTls`, docs/mqtt.md#tls-listener) over real sockets,
 * with a certificate made at test time: an `mqtts://` client with an API user's credentials connects and
 * meets the same ACL as on the plain listener; anonymous and wrong-password clients are refused; a
 * certificate file that does not read leaves the station up with MQTT named as failing.
 */
import { readFileSync, rmSync } from "node:fs";
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, type TestAgent } from "../../support/agent.js";
import { makeCertificate } from "../../support/certificates.js";
import { agentOn, CENTRAL, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { granted, tryConnect } from "./support/broker-probe.js";

const cert = makeCertificate();
const ca = readFileSync(cert.certFile);
afterAll(() => rmSync(cert.dir, { recursive: true, force: true }));

/** A connect attempt on the TLS listener, trusting the test certificate unless told otherwise. */
const tryTls = (port: number, opts: IClientOptions) =>
  tryConnect(`mqtts://localhost:${port}`, { ca, ...opts });

describe("the embedded broker's TLS listener", () => {
  let t: TestAgent;
  let port: number;

  beforeAll(async () => {
    const tls = { port: 0, certFile: cert.certFile, keyFile: cert.keyFile };
    t = await agentOn("embedded", { embeddedTls: tls });
    port = t.agent.sync.tlsPort as number;
    expect(port).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lets an API user in over mqtts:// and holds them to the station's ACL", async () => {
    // an integration user: the central system's rights (an admin may also read beyond the branch)
    const central = { username: "central-tls", password: "central-tls-password" };
    await t.agent.services.auth.addUser(central.username, central.password, "integration");
    const { code, client } = await tryTls(port, central);
    expect(code).toBe(0);
    const c = client as MqttClient;
    expect(
      await granted(c, ["#", "$SYS/#", `${ROOT}/notification`, "ppsedge/v1/dc1/other/notification"]),
    ).toEqual([128, 128, 1, 128]);
    await c.endAsync();
  });

  it("refuses anonymous clients, a wrong password and the agent's own client id", async () => {
    expect((await tryTls(port, {})).code).toBe(5);
    expect((await tryTls(port, { username: ADMIN, password: "wrong-password-123" })).code).toBe(4);
    const thief = await tryTls(port, { ...CENTRAL, clientId: `pps-edge-${SITE}-${PPS}` });
    expect(thief.code).toBe(5);
  });

  it("refuses a client that does not trust the certificate, and plain MQTT on the TLS port", async () => {
    const other = readFileSync(makeCertificate(cert.dir, "other").certFile);
    expect((await tryTls(port, { ...CENTRAL, ca: other })).code).not.toBe(0);
    const plain = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      ...CENTRAL,
      reconnectPeriod: 0,
      connectTimeout: 2000,
    });
    const outcome = await new Promise<string>((ok) => {
      plain.once("connect", () => ok("connected"));
      plain.once("error", () => ok("refused"));
      plain.once("close", () => ok("closed"));
    });
    plain.end(true);
    expect(outcome).not.toBe("connected");
  });
});

describe("a TLS listener whose certificate does not read", () => {
  it("leaves the station up, with MQTT failing in /readyz and the key named", async () => {
    const tls = { port: 0, certFile: `${cert.dir}/missing.crt`, keyFile: cert.keyFile };
    const t = await agentOn("embedded", { embeddedTls: tls });
    try {
      const ready = (await (await t.request("/readyz")).json()) as {
        checks: Record<string, { ok: boolean; detail?: string }>;
      };
      expect(ready.checks.mqtt?.ok).toBe(false);
      expect(ready.checks.mqtt?.detail).toMatch(/missing\.crt.*mqtt\.embeddedTls\.certFile/);
      expect((await t.request("/healthz")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
