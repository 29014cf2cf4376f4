import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";

let t: TestAgent;
let base: string;
beforeAll(async () => {
  // A real server: body limits and content types are properties of the transport.
  t = await startTestAgent({ http: { host: "127.0.0.1", port: 0, bodyLimitBytes: 4096 } }, { listen: true });
  base = `http://127.0.0.1:${t.agent.address?.port}`;
});
afterAll(async () => t.close());

async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${await t.token()}`, ...headers },
    body,
  });
}

describe("every client mistake gets its own clear 4xx, never a 500", () => {
  it("malformed JSON → 400 malformed_json", async () => {
    const res = await send("POST", CATALOG, '{"clientCatalogId": ', { "Content-Type": "application/json" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      status: 400,
      code: "malformed_json",
      errors: [{ path: "(body)" }],
    });
  });

  it("wrong content type → 415", async () => {
    const res = await send("POST", CATALOG, "clientCatalogId=x", { "Content-Type": "text/plain" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      code: "unsupported_media_type",
      errors: [{ path: "Content-Type" }],
    });
  });

  it("no content type → 415", async () => {
    const res = await send("POST", CATALOG, undefined);
    expect(res.status).toBe(415);
  });

  it("a body over the configured limit → 413", async () => {
    const big = JSON.stringify({
      clientCatalogId: "x",
      description: "d".repeat(5000),
      exhaustive_pdea_list: [],
    });
    const res = await send("POST", CATALOG, big, { "Content-Type": "application/json" });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large" });
  });

  /** A body sent in chunks without Content-Length: the limit is counted while it is read. */
  async function sendChunked(text: string) {
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(ctl) {
        for (let i = 0; i < bytes.length; i += 64) ctl.enqueue(bytes.subarray(i, i + 64));
        ctl.close();
      },
    });
    return fetch(`${base}${CATALOG}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${await t.token()}`, "Content-Type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
  }

  it("a chunked body over the limit → 413, and the same socket's client is answered", async () => {
    const res = await sendChunked(JSON.stringify({ clientCatalogId: "x", description: "d".repeat(9000) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large", errors: [{ path: "(body)" }] });
  });

  it("a chunked body within the limit is read whole", async () => {
    const res = await sendChunked(
      JSON.stringify({
        clientCatalogId: "chunked-1",
        description: "c".repeat(200),
        exhaustive_pdea_list: [],
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ clientCatalogId: "chunked-1" });
  });

  it("an unknown path → 404 route_not_found", async () => {
    const res = await send("GET", "/api-gateway/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "route_not_found" });
  });

  it("a known path with the wrong method → 405 with Allow", async () => {
    const res = await send("DELETE", CATALOG);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST");
    expect(await res.json()).toMatchObject({ code: "method_not_allowed" });
  });

  it("an Accept that excludes JSON → 406", async () => {
    const res = await send("GET", CATALOG, undefined, { Accept: "application/xml" });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ code: "not_acceptable", errors: [{ path: "Accept" }] });
    const ok = await send("GET", CATALOG, undefined, { Accept: "application/xml, application/json;q=0.5" });
    expect(ok.status).toBe(200);
  });

  it("an anonymous caller with an Accept that excludes JSON → 401, not 406: no hint that the route exists", async () => {
    const res = await t.request(CATALOG, { headers: { Accept: "application/xml" } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "unauthorized" });
  });

  it("echoes a request id, or makes one", async () => {
    const res = await send("GET", CATALOG, undefined, { "X-Request-Id": "trace-123" });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
    const made = await send("GET", CATALOG);
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
