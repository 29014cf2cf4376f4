import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());

const pdea = (field_name: string, field_data_type = "string", locale = "en") => ({
  field_name,
  field_data_type,
  display_data: [{ locale, display_name: field_name.toUpperCase() }],
});

describe("catalog create, update and list", () => {
  it("creates a catalog with ids and lists it", async () => {
    const res = await t.call("POST", CATALOG, {
      clientCatalogId: "cat-a",
      description: "apparel",
      exhaustive_pdea_list: [pdea("product_sku"), pdea("size", "float", "en-US"), pdea("tags", "list", "de")],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      id: number;
      exhaustive_pdea_list: Array<{ id: number; field_name: string }>;
    };
    expect(body.id).toBeTypeOf("number");
    expect(body.exhaustive_pdea_list.map((p) => p.field_name)).toEqual(["product_sku", "size", "tags"]);
    expect(new Set(body.exhaustive_pdea_list.map((p) => p.id)).size).toBe(3);

    const list = (await (await t.call("GET", CATALOG)).json()) as Array<{ clientCatalogId: string }>;
    expect(list.map((c) => c.clientCatalogId)).toContain("cat-a");
  });

  it("updates by clientCatalogId, keeping the ids of PDEAs that stay", async () => {
    const first = (await (
      await t.call("POST", CATALOG, {
        clientCatalogId: "cat-b",
        exhaustive_pdea_list: [pdea("a"), pdea("b")],
      })
    ).json()) as { id: number; exhaustive_pdea_list: Array<{ id: number; field_name: string }> };
    const second = (await (
      await t.call("POST", CATALOG, {
        clientCatalogId: "cat-b",
        description: "now described",
        exhaustive_pdea_list: [pdea("b", "integer"), pdea("c")],
      })
    ).json()) as {
      id: number;
      description: string;
      exhaustive_pdea_list: Array<{ id: number; field_name: string; field_data_type: string }>;
    };
    expect(second.id).toBe(first.id);
    expect(second.description).toBe("now described");
    const b1 = first.exhaustive_pdea_list.find((p) => p.field_name === "b");
    const b2 = second.exhaustive_pdea_list.find((p) => p.field_name === "b");
    expect(b2?.id).toBe(b1?.id);
    expect(b2?.field_data_type).toBe("integer");
    expect(second.exhaustive_pdea_list.map((p) => p.field_name)).toEqual(["b", "c"]);
  });

  it("accepts an empty PDEA list", async () => {
    const res = await t.call("POST", CATALOG, { clientCatalogId: "empty", exhaustive_pdea_list: [] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { exhaustive_pdea_list: unknown[] }).exhaustive_pdea_list).toEqual([]);
  });
});

describe("catalog bad data: 400 naming the field, nothing changed", () => {
  const cases: Array<[string, unknown, string]> = [
    ["missing clientCatalogId", { exhaustive_pdea_list: [] }, "clientCatalogId"],
    ["missing PDEA list", { clientCatalogId: "x" }, "exhaustive_pdea_list"],
    [
      "unknown data type",
      { clientCatalogId: "x", exhaustive_pdea_list: [pdea("a", "date")] },
      "exhaustive_pdea_list.0.field_data_type",
    ],
    [
      "empty display_data",
      {
        clientCatalogId: "x",
        exhaustive_pdea_list: [{ field_name: "a", field_data_type: "string", display_data: [] }],
      },
      "exhaustive_pdea_list.0.display_data",
    ],
    [
      "bad locale",
      { clientCatalogId: "x", exhaustive_pdea_list: [pdea("a", "string", "english")] },
      "exhaustive_pdea_list.0.display_data.0.locale",
    ],
    [
      "bad locale country",
      { clientCatalogId: "x", exhaustive_pdea_list: [pdea("a", "string", "en_US")] },
      "exhaustive_pdea_list.0.display_data.0.locale",
    ],
    [
      "duplicate field name",
      { clientCatalogId: "x", exhaustive_pdea_list: [pdea("a"), pdea("a")] },
      "exhaustive_pdea_list.1.field_name",
    ],
    ["unknown member", { clientCatalogId: "x", exhaustive_pdea_list: [], colour: 1 }, "(body)"],
    ["too long id", { clientCatalogId: "x".repeat(256), exhaustive_pdea_list: [] }, "clientCatalogId"],
    ["not an object", [1, 2], "(body)"],
  ];
  for (const [name, body, path] of cases) {
    it(name, async () => {
      const before = await (await t.call("GET", CATALOG)).text();
      const res = await t.call("POST", CATALOG, body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as { code: string; errors: Array<{ path: string }> };
      expect(err.code).toBe("validation_failed");
      expect(err.errors.map((e) => e.path)).toContain(path);
      expect(await (await t.call("GET", CATALOG)).text()).toBe(before);
    });
  }
});
