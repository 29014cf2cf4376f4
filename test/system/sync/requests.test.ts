import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestOperations } from "../../../src/sync/request-operations.js";
import { REQUEST_NAMES } from "../../../src/sync/topics.js";
import { SCRAPE, type TestAgent } from "../../support/agent.js";
import { pickBody, pickLine } from "../../support/station.js";
import { agentOn, centralOn, ROOT } from "../../support/sync/agent.js";
import { BROKERS, type TestBroker } from "../../support/sync/brokers.js";
import type { Subscriber } from "../../support/sync/subscriber.js";

const CATALOG_PATH = "/api-gateway/mdm-service/wms-masterdata/catalog";
const catalog = (id: string) => ({
  clientCatalogId: id,
  description: "shoes",
  exhaustive_pdea_list: [
    {
      field_name: "product_sku",
      field_data_type: "string",
      display_data: [{ locale: "en-US", display_name: "SKU" }],
    },
  ],
});

interface Response {
  transaction: string | number | null;
  status: "ok" | "error";
  data: Record<string, unknown>;
  error: { status: number; code: string; errors: Array<{ path: string }> } | null;
}

for (const target of [...BROKERS.map((b) => b.name), "embedded" as const]) {
  describe(`requests from central (${target})`, () => {
    let broker: TestBroker | undefined;
    let t: TestAgent;
    let central: Subscriber;
    let sent = 0;

    /** Publishes a request and resolves with the next response on its topic (raw text). */
    async function request(name: string, payload: string): Promise<string> {
      const topic = `${ROOT}/response/${name}`;
      const before = central.on(topic).length;
      sent++;
      await central.publish(`${ROOT}/request/${name}`, payload);
      await central.waitFor(`response ${sent} on ${name}`, () => central.on(topic).length > before);
      return central.on(topic)[before]?.payload as string;
    }
    const json = async (name: string, body: unknown) =>
      JSON.parse(await request(name, JSON.stringify(body))) as Response;
    const updatedAt = (id: string) =>
      t.agent.db.sqlite.prepare("SELECT updated_at AS u FROM catalogs WHERE client_catalog_id = ?").get(id) as
        | { u: number }
        | undefined;

    beforeAll(async () => {
      broker =
        target === "embedded"
          ? undefined
          : await (BROKERS.find((b) => b.name === target)?.start() as Promise<TestBroker>);
      t = await agentOn(broker ?? "embedded");
      central = await centralOn(t);
    });
    afterAll(async () => {
      await central?.close();
      await t?.close();
      await broker?.close();
    });

    it("answers ok with the operation's result, as HTTP would", async () => {
      const r = await json("upsert_catalog", { transaction: "t-1", ...catalog("C1") });
      expect(r).toMatchObject({ transaction: "t-1", status: "ok", error: null });
      expect(r.data).toMatchObject({
        clientCatalogId: "C1",
        exhaustive_pdea_list: [{ field_name: "product_sku" }],
      });
    });

    it("a repeated request gets the same response and changes nothing twice", async () => {
      const body = JSON.stringify({ transaction: "t-2", ...catalog("C2") });
      const first = await request("upsert_catalog", body);
      const at = updatedAt("C2")?.u;
      expect(at).toBe(t.clock.now);
      t.clock.now += 60_000;
      const again = await request("upsert_catalog", body);
      expect(again).toBe(first);
      expect(updatedAt("C2")?.u).toBe(at);
      // The same body with a new transaction is a new change: the clock moved, so updated_at does too.
      await json("upsert_catalog", { transaction: "t-3", ...catalog("C2") });
      expect(updatedAt("C2")?.u).toBe(t.clock.now);
      const metrics = await (await t.request("/metrics", SCRAPE)).text();
      expect(metrics).toMatch(/^mqtt_requests_total\{name="upsert_catalog",outcome="repeat"\} 1$/m);
    });

    it("a repeated create_service_request gets the same response and makes one request and one notification", async () => {
      const body = JSON.stringify({ transaction: "sr-1", ...pickBody("Q1", [pickLine("Q1-L1", "NOPE", 1)]) });
      const outbox = () => t.agent.services.repos.outbox.lastSeq();
      const seq = outbox();
      const first = await request("create_service_request", body);
      expect(JSON.parse(first)).toMatchObject({ status: "ok", data: { externalServiceRequestId: "Q1" } });
      // Nothing in stock matches: the one change emits order_information not_fulfillable.
      expect(outbox()).toBe(seq + 1);
      t.clock.now += 60_000;
      expect(await request("create_service_request", body)).toBe(first);
      expect(outbox()).toBe(seq + 1);
      const rows = t.agent.db.sqlite
        .prepare("SELECT count(*) AS n FROM service_requests WHERE external_id = 'Q1'")
        .get();
      expect(rows).toEqual({ n: 1 });
    });

    it("a malformed request gets an error response with the HTTP error body and changes nothing", async () => {
      const bad = {
        transaction: 42,
        ...catalog("C3"),
        exhaustive_pdea_list: [{ field_name: "x", field_data_type: "text" }],
      };
      const r = await json("upsert_catalog", bad);
      expect(r.transaction).toBe(42);
      expect(r.status).toBe("error");
      expect(r.data).toEqual({});
      const { transaction: _, ...httpBody } = bad;
      const http = (await (await t.call("POST", CATALOG_PATH, httpBody)).json()) as Record<string, unknown>;
      expect(r.error).toEqual({ ...http, requestId: undefined });
      expect(r.error?.code).toBe("validation_failed");
      expect(r.error?.errors.map((e) => e.path)).toContain("exhaustive_pdea_list.0.field_data_type");
      expect(updatedAt("C3")).toBeUndefined();
      // Asked again, the same answer, still no change.
      expect(await json("upsert_catalog", bad)).toEqual(r);
      expect(updatedAt("C3")).toBeUndefined();
    });

    it.each([
      ["rack_presented", "/station/racks", { msu: "M9", locations: [] }],
      [
        "stage_put",
        "/api-gateway/integration-service/wms-integration/core/api/stage_put_expectation",
        { ppsId: "7" },
      ],
    ])("%s refuses a bad body with the error HTTP gives for it", async (name, path, body) => {
      const r = await json(name, { transaction: `bad-${name}`, ...body });
      const http = (await (await t.call("POST", path, body)).json()) as Record<string, unknown>;
      expect(r.status).toBe("error");
      expect(r.error).toEqual({ ...http, requestId: undefined });
    });

    it("refuses text that is not JSON, a missing transaction, and a transaction reused for another body", async () => {
      const notJson = JSON.parse(await request("upsert_catalog", "{not json")) as Response;
      expect(notJson).toMatchObject({
        transaction: null,
        status: "error",
        error: { status: 400, code: "malformed_json" },
      });

      const noTxn = await json("upsert_catalog", catalog("C4"));
      expect(noTxn).toMatchObject({
        transaction: null,
        status: "error",
        error: { code: "validation_failed" },
      });
      expect(noTxn.error?.errors.map((e) => e.path)).toEqual(["transaction"]);
      expect(updatedAt("C4")).toBeUndefined();

      await json("upsert_catalog", { transaction: "t-5", ...catalog("C5") });
      const reused = await json("upsert_catalog", { transaction: "t-5", ...catalog("C6") });
      expect(reused).toMatchObject({
        transaction: "t-5",
        status: "error",
        error: { status: 409, code: "duplicate_request" },
      });
      expect(updatedAt("C6")).toBeUndefined();
    });

    it("answers an unknown request name with route_not_found, and one not available yet with not_ready", async () => {
      const unknown = await json("frobnicate", { transaction: "t-7" });
      expect(unknown).toMatchObject({
        transaction: "t-7",
        status: "error",
        error: { status: 404, code: "route_not_found" },
      });
      // A request name whose operation is not on the services container yet.
      const missing = REQUEST_NAMES.find(
        (n) =>
          !(
            n in
            requestOperations(t.agent.services, {
              dataDir: t.dir,
              now: Date.now,
              status: () => ({}) as never,
            })
          ),
      );
      if (missing) {
        const pending = await json(missing, { transaction: "t-8" });
        expect(pending).toMatchObject({
          transaction: "t-8",
          status: "error",
          error: { status: 503, code: "not_ready" },
        });
      }
    });
  });
}
