import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../helpers/agent.js";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());

describe("health, readiness, metrics, API description", () => {
  it("healthz answers ok", async () => {
    const res = await t.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("readyz reports the database as open and migrated, the devices, and the outbox and MQTT link", async () => {
    const res = await t.request("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ready: true,
      checks: {
        database: { ok: true },
        devices: { ok: true, detail: "4 of 4 connected" },
        outbox: { ok: true, detail: "0 undelivered, oldest 0 s, 0 moved aside" },
        mqtt: { ok: true, detail: "off" },
      },
    });
  });

  it("readyz answers 503 once the database is closed", async () => {
    const other = await startTestAgent();
    other.agent.db.sqlite.close();
    const res = await other.request("/readyz");
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ready: boolean; checks: Record<string, { ok: boolean }> };
    expect(body.ready).toBe(false);
    expect(body.checks.database?.ok).toBe(false);
    await other.close().catch(() => {});
  });

  it("metrics count requests by route and status, with latency histograms", async () => {
    await t.request("/healthz");
    await t.request("/api-gateway/mdm-service/wms-masterdata/catalog");
    const res = await t.request("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(text).toContain(
      'http_requests_total{method="GET",route="/api-gateway/mdm-service/wms-masterdata/catalog",status="401"} 1',
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/healthz",status_class="2xx"\} \d+/,
    );
  });

  it("metrics time each commit (the unit of work's hook, wired by the agent)", async () => {
    const created = await t.call("POST", "/api-gateway/mdm-service/wms-masterdata/catalog", {
      clientCatalogId: "metrics-commit",
      exhaustive_pdea_list: [],
    });
    expect(created.status).toBe(200);
    const text = await (await t.request("/metrics")).text();
    expect(text).toMatch(/^db_commit_duration_seconds_count [1-9]\d*$/m);
  });

  it("openapi.json describes every spec path of this layer with request schemas", async () => {
    const res = await t.request("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.openapi).toBe("3.0.3");
    const catalogPost = doc.paths["/api-gateway/mdm-service/wms-masterdata/catalog"]?.post as {
      requestBody: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } };
    };
    expect(Object.keys(catalogPost.requestBody.content["application/json"].schema.properties)).toContain(
      "exhaustive_pdea_list",
    );
    expect(doc.paths["/api-gateway/mdm-service/wms-masterdata/item/search_v2"]?.post).toBeDefined();
    expect(doc.paths["/api-gateway/auth-service/platform-auth/oauth/token"]?.post).toBeDefined();
  });

  it("docs renders the description as HTML", async () => {
    const res = await t.request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("POST /api-gateway/mdm-service/wms-masterdata/item/search_v2");
  });
});
