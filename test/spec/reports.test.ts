/**
 * Conformance: "Endpoints" → "Reports", "Resources" → "Report", "Events" → report_generation. The
 * generate call goes over HTTP (and MQTT); the notification is read off the embedded broker.
 */
import { rmSync } from "node:fs";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../src/app/agent.js";
import { passwordGrant, type TestAgent, TOKEN_PATH, testConfig } from "../support/agent.js";
import { itemBody } from "../support/fixtures.js";
import { type Envelope, ITEM, type Json, ok, seedItem, setStock } from "../support/station.js";
import { ask, CENTRAL, FAST, PPS, ROOT, SITE } from "../support/sync/agent.js";
import { subscribe } from "../support/sync/subscriber.js";
import { type Central, startCentral } from "./support/central.js";
import { GENERATE, PREFIX } from "./support/endpoints.js";

const REPORT = PREFIX.report;

let c: Central;
let proxied: Central;

beforeAll(async () => {
  c = await startCentral();
  proxied = await startCentral({ http: { publicUrl: "https://pps-7.example.com/edge" } });
  for (const t of [c.t, proxied.t]) {
    await seedItem(t, "SHIRT");
    await setStock(t, "S-1", "M-1", "SHIRT", 4);
  }
});
afterAll(async () => {
  await c?.close();
  await proxied?.close();
});

/** POST generate with the given Host header, as a caller on the LAN sends it. */
async function generateVia(t: TestAgent, host: string): Promise<number> {
  const res = await t.request(GENERATE, {
    method: "POST",
    headers: { Authorization: `Bearer ${await t.token()}`, Host: host },
  });
  return (await ok(res)).id as number;
}

async function generated(central: Central): Promise<Envelope> {
  await central.t.agent.services.reports.idle();
  const notes = await central.since();
  expect(notes.map((n) => n.notification_type)).toEqual(["report_generation"]);
  return notes[0] as Envelope;
}

describe("inventory report", () => {
  it("Reports: POST generate-inventory-report, no body → 200 {id} (integer report id); report_generation carries id, type inventory/GR, report_url, requested_time, generated_time", async () => {
    await c.mark();
    const res = await ok(c.t.call("POST", GENERATE));
    expect(Object.keys(res)).toEqual(["id"]);
    expect(Number.isInteger(res.id)).toBe(true);
    const note = await generated(c);
    expect(note.notification_data).toEqual({
      id: res.id,
      type: "inventory/GR",
      report_url: expect.stringMatching(new RegExp(`${REPORT}/download/${res.id}$`)),
      requested_time: expect.stringMatching(/Z$/),
      generated_time: expect.stringMatching(/Z$/),
    });
  });

  it("Reports: report_url reachable by the caller → built from the Host the generate call came in on, never 127.0.0.1 for a caller on the LAN", async () => {
    await c.mark();
    const id = await generateVia(c.t, "10.20.30.40:8080");
    const note = await generated(c);
    expect(note.notification_data.report_url).toBe(`http://10.20.30.40:8080${REPORT}/download/${id}`);
    const named = await generateVia(c.t, "station-7.lan:8080");
    expect((await generated(c)).notification_data.report_url).toBe(
      `http://station-7.lan:8080${REPORT}/download/${named}`,
    );
  });

  it("Reports: report_url from http.publicUrl when it is set, whatever the Host", async () => {
    await proxied.mark();
    const id = await generateVia(proxied.t, "10.20.30.40:8080");
    expect((await generated(proxied)).notification_data.report_url).toBe(
      `https://pps-7.example.com/edge${REPORT}/download/${id}`,
    );
    const overMqtt = JSON.parse(
      await ask(proxied.broker, "generate_inventory_report", { transaction: "r-1" }),
    ) as Json;
    expect(overMqtt).toMatchObject({ status: "ok", data: { id: expect.any(Number) } });
    expect((await generated(proxied)).notification_data.report_url).toBe(
      `https://pps-7.example.com/edge${REPORT}/download/${overMqtt.data.id}`,
    );
  });

  it("Report: the report_url serves a CSV whose header is the unique fields of each product, then quantity", async () => {
    await c.mark();
    const id = await generateVia(c.t, "10.20.30.40:8080");
    const url = new URL((await generated(c)).notification_data.report_url as string);
    expect(url.pathname).toBe(`${REPORT}/download/${id}`);
    const res = await c.t.call("GET", url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await res.text()).split("\r\n")).toEqual(["product_sku,quantity", "SHIRT,4", ""]);
  });
});

describe("inventory report over MQTT", () => {
  it("Reports: generate-inventory-report over MQTT (generate_inventory_report) → {id}; report_generation off the broker, report_url at the listener (no Host over MQTT: docs/decisions.md)", async () => {
    await c.mark();
    const answer = JSON.parse(
      await ask(c.broker, "generate_inventory_report", { transaction: "g-1" }),
    ) as Json;
    expect(answer).toEqual({
      transaction: "g-1",
      status: "ok",
      data: { id: expect.any(Number) },
      error: null,
    });
    const note = await generated(c);
    expect(note.notification_data).toMatchObject({ id: answer.data.id, type: "inventory/GR" });
    const port = c.t.agent.address?.port;
    expect(note.notification_data.report_url).toBe(
      `http://127.0.0.1:${port}${REPORT}/download/${answer.data.id}`,
    );
    const res = await fetch(note.notification_data.report_url, {
      headers: { Authorization: `Bearer ${await c.t.token()}` },
    });
    expect([res.status, (await res.text()).split("\r\n")[0]]).toEqual([200, "product_sku,quantity"]);
  });
});

describe("report CSV", () => {
  it("Report: header row of the unique fields of each product followed by quantity → sample columns product_sku, client_id, quantity", async () => {
    const schema = { unique: [["product_sku", "client_id"]], type: "object" };
    const boot = itemBody("BOOT", { schema, productAttributes: { product_sku: "BOOT", client_id: "C-9" } });
    await ok(proxied.t.call("POST", ITEM, boot));
    await setStock(proxied.t, "S-2", "M-1", { product_sku: "BOOT", client_id: "C-9" }, 2);
    await setStock(proxied.t, "S-3", "M-2", { product_sku: "BOOT", client_id: "C-9" }, 1);
    await proxied.mark();
    const id = await generateVia(proxied.t, "10.20.30.40:8080");
    await generated(proxied);
    const res = await proxied.t.call("GET", `${REPORT}/download/${id}`);
    expect((await res.text()).split("\r\n")).toEqual([
      "product_sku,client_id,quantity",
      "SHIRT,,4",
      "BOOT,C-9,3",
      "",
    ]);
  });
});

/** The agent of `dir` started again (HTTP and its embedded broker), on the clock of `before`. */
async function restart(before: TestAgent) {
  const mqtt = { url: "embedded", embeddedPort: 0, ...FAST };
  const config = testConfig(before.dir, { site: SITE, ppsId: PPS, mqtt });
  const agent = createAgent(config, { log: pino({ level: "silent" }), now: () => before.clock.now });
  await agent.start(true);
  const central = await subscribe(
    agent.sync.url as string,
    [`${ROOT}/response/#`, `${ROOT}/connection`],
    CENTRAL,
  );
  await central.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
  const token = ((await ok(agent.app.request(TOKEN_PATH, passwordGrant()))) as Json).access_token as string;
  return { agent, central, token, base: `http://127.0.0.1:${agent.address?.port}` };
}

describe("restart", () => {
  it("Reports: restart keeping stored base URL → a report generated before the restart is still served at its URL; one left requested finishes with the base it was requested with", async () => {
    const first = await startCentral();
    await seedItem(first.t, "SHIRT");
    await setStock(first.t, "S-1", "M-1", "SHIRT", 4);
    await first.mark();
    const done = await generateVia(first.t, "10.20.30.40:8080");
    const url = new URL((await generated(first)).notification_data.report_url as string);
    expect(url.host).toBe("10.20.30.40:8080");
    // a generate call from another caller whose job a stop cut short: left requested with its base
    const pending = first.t.agent.services.unitOfWork.run((tx) =>
      first.t.agent.services.repos.reports.insert("inventory/GR", tx.now, "http://10.9.8.7:8080"),
    );
    await first.broker.close();
    await first.t.agent.stop();

    const again = await restart(first.t);
    try {
      const res = await fetch(`${again.base}${url.pathname}`, {
        headers: { Authorization: `Bearer ${again.token}` },
      });
      expect([res.status, await res.text()]).toEqual([200, "product_sku,quantity\r\nSHIRT,4\r\n"]);
      await again.agent.services.reports.idle();
      const replay = JSON.parse(
        await ask(again.central, "replay_notifications", { transaction: "rr-1", after: 0, limit: 500 }),
      ) as Json;
      const reports = (replay.data.notifications as Json[])
        .map((n) => JSON.parse(n.payload) as Envelope)
        .filter((n) => n.notification_type === "report_generation")
        .map((n) => [n.notification_data.id, n.notification_data.report_url]);
      expect(reports).toEqual([
        [done, `http://10.20.30.40:8080${REPORT}/download/${done}`],
        [pending, `http://10.9.8.7:8080${REPORT}/download/${pending}`],
      ]);
    } finally {
      await again.central.close();
      await again.agent.stop();
      rmSync(first.t.dir, { recursive: true, force: true });
    }
  });
});
