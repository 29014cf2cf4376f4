/**
 * Conformance: "Endpoints" → "Reports", "Resources" → "Report", "Events" → report_generation. The
 * generate call goes over HTTP (and MQTT); the notification is read off the embedded broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../helpers/agent.js";
import { type Envelope, type Json, ok, seedItem, setStock } from "../helpers/station.js";
import { ask } from "../sync/support/agent.js";
import { type Central, startCentral } from "./support/central.js";

const PREFIX = "/api-gateway/platform-dashboard/report";
const GENERATE = `${PREFIX}/generate-inventory-report`;

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
      report_url: expect.stringMatching(new RegExp(`${PREFIX}/download/${res.id}$`)),
      requested_time: expect.stringMatching(/Z$/),
      generated_time: expect.stringMatching(/Z$/),
    });
  });

  it("Reports: report_url reachable by the caller → built from the Host the generate call came in on, never 127.0.0.1 for a caller on the LAN", async () => {
    await c.mark();
    const id = await generateVia(c.t, "10.20.30.40:8080");
    const note = await generated(c);
    expect(note.notification_data.report_url).toBe(`http://10.20.30.40:8080${PREFIX}/download/${id}`);
    const named = await generateVia(c.t, "station-7.lan:8080");
    expect((await generated(c)).notification_data.report_url).toBe(
      `http://station-7.lan:8080${PREFIX}/download/${named}`,
    );
  });

  it("Reports: report_url from http.publicUrl when it is set, whatever the Host", async () => {
    await proxied.mark();
    const id = await generateVia(proxied.t, "10.20.30.40:8080");
    expect((await generated(proxied)).notification_data.report_url).toBe(
      `https://pps-7.example.com/edge${PREFIX}/download/${id}`,
    );
    const overMqtt = JSON.parse(
      await ask(proxied.broker, "generate_inventory_report", { transaction: "r-1" }),
    ) as Json;
    expect(overMqtt).toMatchObject({ status: "ok", data: { id: expect.any(Number) } });
    expect((await generated(proxied)).notification_data.report_url).toBe(
      `https://pps-7.example.com/edge${PREFIX}/download/${overMqtt.data.id}`,
    );
  });

  it("Report: the report_url serves a CSV whose header is the unique fields of each product, then quantity", async () => {
    await c.mark();
    const id = await generateVia(c.t, "10.20.30.40:8080");
    const url = new URL((await generated(c)).notification_data.report_url as string);
    expect(url.pathname).toBe(`${PREFIX}/download/${id}`);
    const res = await c.t.call("GET", url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await res.text()).split("\r\n")).toEqual(["product_sku,quantity", "SHIRT,4", ""]);
  });
});
