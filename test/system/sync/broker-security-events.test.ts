/**
 * The embedded broker's logins in the security event log (docs/security.md#security-event-log), over real
 * sockets: a wrong password leaves a row with channel `mqtt`, the client's address and the reason, never
 * the password; a good login is recorded too; repeated failures are delayed like the token endpoint's.
 */
import mqtt, { type IClientOptions } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SecurityEvent } from "../../../src/domain/security-event.js";
import { ADMIN, type TestAgent } from "../../support/agent.js";
import { agentOn, CENTRAL, PPS, SITE } from "../../support/sync/agent.js";

const WRONG = "wrong-password-mqtt-123";

/** The CONNACK return code of one connect attempt (0: accepted; the client is closed either way). */
async function connectCode(url: string, opts: IClientOptions): Promise<number> {
  const client = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  const code = await new Promise<number>((ok) => {
    client.once("connect", () => ok(0));
    client.once("error", (err) => ok((err as Error & { code?: number }).code ?? -1));
  });
  await client.endAsync(true);
  return code;
}

describe("the embedded broker's logins in the security event log", () => {
  let t: TestAgent;
  let url: string;
  const events = (kind: SecurityEvent["kind"]) =>
    t.agent.services.securityLog.list({ kind, limit: 1000 }).filter((e) => e.channel === "mqtt");

  beforeAll(async () => {
    t = await agentOn("embedded");
    url = t.agent.sync.url as string;
  });
  afterAll(async () => t?.close());

  it("records a wrong password with the client's address and reason, never the password", async () => {
    expect(await connectCode(url, { username: ADMIN, password: WRONG })).toBe(4);
    expect(await connectCode(url, { username: "nobody", password: WRONG })).toBe(4);
    const failed = events("login_failed");
    expect(failed.map((e) => [e.username, e.detail?.reason])).toEqual([
      ["nobody", "unknown_user"],
      [ADMIN, "wrong_password"],
    ]);
    for (const e of failed) expect(e.address).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    const raw = t.agent.db.sqlite.prepare("SELECT * FROM security_events").all();
    expect(JSON.stringify(raw)).not.toContain(WRONG);
    expect(JSON.stringify(raw)).not.toContain(CENTRAL.password);
  });

  it("records a good login, and not the agent's own connection", async () => {
    expect(await connectCode(url, CENTRAL)).toBe(0);
    const ok = events("login_succeeded");
    expect(ok.map((e) => e.username)).toEqual([ADMIN]);
    expect(t.agent.services.securityLog.list({ limit: 1000 }).every((e) => e.username !== null)).toBe(true);
  });

  it("delays repeated failures and records the lockout once", async () => {
    t.sleeps.length = 0;
    for (let i = 0; i < 7; i++)
      expect(await connectCode(url, { username: "carol", password: WRONG })).toBe(4);
    expect(t.sleeps).toEqual([1000, 2000, 4000]);
    const locks = events("login_throttled").filter((e) => e.username === "carol");
    expect(locks).toHaveLength(1);
    expect(locks[0]?.detail).toEqual({ scope: "pair", lockSeconds: 900 });
  });

  it("records connects refused before a password check, once per address and reason", async () => {
    for (let i = 0; i < 3; i++) expect(await connectCode(url, {})).toBe(5);
    const thief = { ...CENTRAL, clientId: `pps-edge-${SITE}-${PPS}` };
    expect(await connectCode(url, thief)).toBe(5);
    expect(t.agent.sync.status().connected).toBe(true);
    const rows = events("login_failed").filter((e) => e.detail?.reason !== "wrong_password");
    const reasons = rows.map((e) => [e.username, e.detail?.reason]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        [null, "no_credentials"],
        [ADMIN, "reserved_client_id"],
      ]),
    );
    expect(rows.filter((e) => e.detail?.reason === "no_credentials")).toHaveLength(1);
  });
});
