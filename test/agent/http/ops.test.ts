import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";

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

  it("readyz reports the database as open and migrated, its writes, the devices, and the outbox and MQTT link", async () => {
    const res = await t.request("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ready: true,
      checks: {
        database: { ok: true },
        storage: { ok: true },
        storage_budget: { ok: true },
        devices: { ok: true, detail: "4 of 4 connected" },
        outbox: { ok: true, detail: "0 undelivered, oldest 0 s, 0 moved aside" },
        mqtt: { ok: true, detail: "off" },
        webhooks: { ok: true, detail: "no endpoints" },
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
    const res = await t.request("/metrics", SCRAPE);
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
    const text = await (await t.request("/metrics", SCRAPE)).text();
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

  it("docs serves Swagger UI over /openapi.json from the agent itself, under a CSP that allows only 'self'", async () => {
    const res = await t.request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//); // nothing from the network
    expect(html).not.toMatch(/<script>|<style>|\son[a-z]+=/); // nothing inline
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual([
      "/docs/assets/swagger-ui.css",
      "/docs/assets/favicon-32x32.png",
      "/docs/assets/swagger-ui-bundle.js",
      "/docs/assets/swagger-ui-standalone-preset.js",
      "/docs/assets/docs.js",
    ]);
    const init = await t.request("/docs/assets/docs.js");
    expect(await init.text()).toContain('url: "/openapi.json"');
  });

  it("docs assets come from swagger-ui-dist with their types, gzipped when asked, 304 when unchanged", async () => {
    const dir = createRequire(import.meta.url)
      .resolve("swagger-ui-dist/package.json")
      .replace(/package\.json$/, "");
    const types: Record<string, string> = {
      "swagger-ui.css": "text/css; charset=utf-8",
      "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
      "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
      "favicon-32x32.png": "image/png",
    };
    for (const [name, type] of Object.entries(types)) {
      const res = await t.request(`/docs/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type"), name).toBe(type);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(`${dir}${name}`)), name).toBe(true);
    }
    const gz = await t.request("/docs/assets/swagger-ui-bundle.js", {
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    const plain = gunzipSync(Buffer.from(await gz.arrayBuffer()));
    expect(plain.equals(readFileSync(`${dir}swagger-ui-bundle.js`))).toBe(true);
    const etag = gz.headers.get("etag") ?? "";
    const again = await t.request("/docs/assets/swagger-ui-bundle.js", {
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });
});
