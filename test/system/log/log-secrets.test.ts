/**
 * Every log line of a running agent, from its start to its stop, at `trace`: secrets never appear (the
 * configured admin password, client secret, broker password and scrape token; tokens issued, refreshed
 * or made up; the seat's screen key), each line is one JSON object with a string level and no key twice.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import {
  ADMIN,
  ADMIN_PASSWORD,
  BASIC,
  CLIENT_SECRET,
  METRICS_TOKEN,
  SCRAPE,
  startTestAgent,
  type TestAgent,
} from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { duplicateKeys, LogLines } from "../../support/log-lines.js";

const TOKEN = "/api-gateway/auth-service/platform-auth/oauth/token";
const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";
const BROKER_PASSWORD = "broker-password-4711";
const MADE_UP_TOKEN = "made-up-token-0123456789abcdefghijklmnopqrstu";

const lines = new LogLines();
const secrets = [
  ADMIN_PASSWORD,
  CLIENT_SECRET,
  BROKER_PASSWORD,
  MADE_UP_TOKEN,
  BASIC.slice("Basic ".length),
  METRICS_TOKEN,
];
let t: TestAgent;
let base: string;

function tokenCall(params: Record<string, string>) {
  return fetch(`${base}${TOKEN}`, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
}

beforeAll(async () => {
  t = await startTestAgent(
    {
      log: { level: "trace" },
      mqtt: { url: "embedded", embeddedPort: 0, username: "edge", password: BROKER_PASSWORD },
    },
    { listen: true, logTo: lines },
  );
  base = `http://127.0.0.1:${t.agent.address?.port}`;
  await until("the MQTT link", async () => lines.text().includes('"msg":"mqtt: connected"'));
});
afterAll(async () => {
  if (t) await t.close().catch(() => {});
});

describe("the agent's log", () => {
  it("names no secret through logins, a refresh, calls with good and bad tokens, a screen key and a stop", async () => {
    const good = await tokenCall({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD });
    expect(good.status).toBe(200);
    const issued = (await good.json()) as { access_token: string; refresh_token: string };
    const bad = await tokenCall({
      grant_type: "password",
      username: ADMIN,
      password: `${ADMIN_PASSWORD}-wrong`,
    });
    expect(bad.status).toBe(401);
    const renewed = await tokenCall({ grant_type: "refresh_token", refresh_token: issued.refresh_token });
    expect(renewed.status).toBe(200);
    const second = (await renewed.json()) as { access_token: string; refresh_token: string };
    const ok = await fetch(`${base}${CATALOG}`, {
      headers: { Authorization: `Bearer ${second.access_token}` },
    });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${base}${CATALOG}`, {
      headers: { Authorization: `Bearer ${MADE_UP_TOKEN}` },
    });
    expect(refused.status).toBe(401);
    const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
    const screen = await fetch(`${base}/screen/front?key=${keys.front}`, { redirect: "manual" });
    expect(screen.status).toBe(303);
    const wrongKey = await fetch(`${base}/screen/front?key=${keys.back}`, { redirect: "manual" });
    expect(wrongKey.headers.get("location")).toContain("key-refused");
    expect((await fetch(`${base}/metrics`, SCRAPE)).status).toBe(200);
    expect(
      (await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}-wrong` } }))
        .status,
    ).toBe(401);
    await t.agent.stop();

    const text = lines.text();
    // the lines looked at are the whole life: start, the calls, stop
    for (const msg of ["devices started", "pps-edge ready", "mqtt: connected", "request", "pps-edge stopped"])
      expect(text).toContain(`"msg":"${msg}"`);
    const found = [
      ...secrets,
      issued.access_token,
      issued.refresh_token,
      second.access_token,
      second.refresh_token,
      keys.front,
      keys.back,
    ].filter((s) => s && text.includes(s as string));
    expect(found).toEqual([]);
  });

  it("writes one JSON object per line, with a string level and no key twice", () => {
    expect(lines.lines.length).toBeGreaterThan(10);
    for (const line of lines.lines) {
      const entry = JSON.parse(line) as { level: unknown; station: unknown };
      expect(typeof entry.level, line).toBe("string");
      expect(entry.station).toBe("dc1/1");
      expect(duplicateKeys(line), line).toEqual([]);
    }
  });
});
