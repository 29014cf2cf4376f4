/**
 * Revocation at once (docs/security.md#roles): a user removed, given a new password or another role with the
 * command line (another connection to the database file) loses, within a few seconds and without making
 * a request, their open screen event stream and their MQTT connection to the embedded broker; their
 * token is refused. Real HTTP server, real SQLite file, real broker over sockets.
 */
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC, type TestAgent, TOKEN_PATH } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";
import { deadline, until } from "../../support/deadline.js";
import { agentOn, ROOT } from "../../support/sync/agent.js";

const PASSWORD = "a-long-test-password";

let t: TestAgent;
let base: string;
let brokerUrl: string;

async function cli(args: string[], stdin = ""): Promise<void> {
  const res = await runCli(["user", ...args], { PPS_EDGE_DATA_DIR: t.dir }, stdin);
  expect([args.join(" "), res.code, res.err]).toEqual([args.join(" "), 0, ""]);
}

async function grant(form: Record<string, string>): Promise<Response> {
  return fetch(`${base}${TOKEN_PATH}`, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

async function tokensOf(username: string): Promise<{ access_token: string; refresh_token: string }> {
  const res = await grant({ grant_type: "password", username, password: PASSWORD });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

async function tokenOf(username: string): Promise<string> {
  return (await tokensOf(username)).access_token;
}

/** Opens the seat's event stream; `ended` turns true when the agent closes it. */
async function openStream(token: string) {
  const state = { ended: false, events: 0 };
  const res = await fetch(`${base}/station/seats/front/screen/events`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    try {
      while (!(await reader.read()).done) state.events++;
    } catch {
      // a reset socket ends it too
    }
    state.ended = true;
  })();
  await until("the first event", () => state.events > 0);
  return { state, cancel: () => reader.cancel().catch(() => {}) };
}

async function connectMqtt(username: string): Promise<{ client: MqttClient; closed: () => boolean }> {
  const client = mqtt.connect(brokerUrl, { username, password: PASSWORD, reconnectPeriod: 0 });
  let closed = false;
  client.on("close", () => {
    closed = true;
  });
  await new Promise<void>((ok, fail) => {
    client.once("connect", () => ok());
    client.once("error", fail);
  });
  await client.subscribeAsync(`${ROOT}/connection`);
  return { client, closed: () => closed };
}

function connackCode(username: string): Promise<number> {
  const client = mqtt.connect(brokerUrl, { username, password: PASSWORD, reconnectPeriod: 0 });
  return new Promise((ok) => {
    client.once("connect", () => {
      client.end(true);
      ok(0);
    });
    client.once("error", (err) => {
      client.end(true);
      ok((err as Error & { code?: number }).code ?? -1);
    });
  });
}

beforeAll(async () => {
  t = await agentOn("embedded");
  base = `http://127.0.0.1:${t.agent.address?.port}`;
  brokerUrl = t.agent.sync.url as string;
  await cli(["add", "olga", "--role", "operator"], `${PASSWORD}\n`);
  await cli(["add", "ian", "--role", "integration"], `${PASSWORD}\n`);
  await cli(["add", "carl", "--role", "integration"], `${PASSWORD}\n`);
});
afterAll(async () => {
  await t?.close();
});

describe("revocation at once", () => {
  it("a user removed with the command line: their open stream closes, their token is refused", async () => {
    const token = await tokenOf("olga");
    const stream = await openStream(token);
    await cli(["remove", "olga"]);
    await until("the stream closed", () => stream.state.ended);
    const res = await fetch(`${base}/station/state`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  it("a bearer token that expires ends the stream it opened; a fresh token opens it again", async () => {
    await cli(["add", "tess", "--role", "operator"], `${PASSWORD}\n`);
    // past the sweep that the command line's change causes (app/revocation.part.ts, once a second):
    // nothing else changes the database while the token runs out
    await new Promise((r) => setTimeout(r, deadline(2000)));
    const res = await grant({ grant_type: "password", username: "tess", password: PASSWORD });
    const { access_token, expires_in } = (await res.json()) as { access_token: string; expires_in: number };
    const stream = await openStream(access_token);
    t.clock.now += (expires_in + 1) * 1000;
    await until("the stream closed", () => stream.state.ended);
    const again = await openStream(await tokenOf("tess"));
    expect(again.state.ended).toBe(false);
    await again.cancel();
  });

  it("a user removed with the command line: their MQTT connection is closed", async () => {
    const { client, closed } = await connectMqtt("ian");
    await cli(["remove", "ian"]);
    await until("the MQTT connection closed", closed);
    client.end(true);
    expect(await connackCode("ian")).toBe(4);
  });

  it("a new role: the MQTT connection is closed and judged again (an operator is refused)", async () => {
    const { client, closed } = await connectMqtt("carl");
    await cli(["role", "carl", "operator"]);
    await until("the MQTT connection closed", closed);
    client.end(true);
    expect(await connackCode("carl")).toBe(5);
  });

  it("a new role: an operator's stream closes; a stream of someone else stays open", async () => {
    await cli(["add", "otto", "--role", "operator"], `${PASSWORD}\n`);
    const admin = await openStream(await t.token());
    const stream = await openStream(await tokenOf("otto"));
    await cli(["role", "otto", "integration"]);
    await until("the stream closed", () => stream.state.ended);
    expect(admin.state.ended).toBe(false);
    await admin.cancel();
    const metrics = await t.agent.metrics.render();
    expect(metrics).toMatch(/auth_revocations_total\{reason="role_changed"\} [1-9]/);
    expect(metrics).toMatch(/auth_revocations_total\{reason="user_removed"\} [1-9]/);
  });

  it("a refresh token used twice ends the open streams of its login (its family) at once, not those of the user's other logins", async () => {
    await cli(["add", "rita", "--role", "operator"], `${PASSWORD}\n`);
    const tokens = await tokensOf("rita");
    const stream = await openStream(tokens.access_token);
    const otherLogin = await tokensOf("rita");
    const other = await openStream(otherLogin.access_token);
    expect((await grant({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(
      200,
    );
    // the second use is a replay: every token of that login is revoked, and its stream ends with them
    expect((await grant({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(
      401,
    );
    await until("the stream closed", () => stream.state.ended);
    // rita's other login (another client) keeps its stream and its token
    await new Promise((r) => setTimeout(r, 300));
    expect(other.state.ended).toBe(false);
    const still = await fetch(`${base}/station/state`, {
      headers: { Authorization: `Bearer ${otherLogin.access_token}` },
    });
    expect(still.status).toBe(200);
    await other.cancel();
  });
});
