/**
 * Conformance: "Resources" → "PDEA object" and "Catalog object"; "Endpoints" → "Catalog" (list, create or
 * update, and "Delete a catalog: not shown"), over HTTP and over MQTT (upsert_catalog).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../support/station.js";
import { ok } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { CATALOG, catalogBody, pdea, refused, refusedOverMqtt } from "./support/masterdata.js";

let c: Central;
beforeAll(async () => {
  c = await startCentral();
});
afterAll(async () => c?.close());

const post = (body: unknown) => c.t.call("POST", CATALOG, body);
const list = async () => (await ok(c.t.call("GET", CATALOG))) as unknown as Json[];
const catalog = (locale: string) =>
  catalogBody(`cat-${locale}`, { exhaustive_pdea_list: [pdea("product_sku", "string", locale, "SKU")] });
const upsertOverMqtt = async (body: Json) =>
  ask(c.broker, "upsert_catalog", { transaction: `cat-${Math.random()}`, ...body });

/** A refused catalog post changes nothing: the list reads the same after it. */
async function refusedUnchanged(body: unknown, path: string): Promise<void> {
  const before = JSON.stringify(await list());
  await refused(post(body), 400, "validation_failed", path);
  expect(JSON.stringify(await list())).toBe(before);
}

describe("PDEA object", () => {
  it("PDEA object: field_data_type | one of string, list, double, integer, boolean, dict; a sample also uses float", async () => {
    const types = ["string", "list", "double", "integer", "boolean", "dict", "float"];
    const res = await ok(
      post(catalogBody("types", { exhaustive_pdea_list: types.map((x) => pdea(`f_${x}`, x)) })),
    );
    expect(res.exhaustive_pdea_list.map((p: Json) => p.field_data_type)).toEqual(types);
    for (const other of ["date", "number", "String", ""]) {
      await refusedUnchanged(
        catalogBody("types", { exhaustive_pdea_list: [pdea("f_other", other)] }),
        "exhaustive_pdea_list.0.field_data_type",
      );
    }
  });

  it("PDEA object: display_data | at least one entry required", async () => {
    const empty = { field_name: "colour", field_data_type: "string", display_data: [] };
    await refusedUnchanged(
      catalogBody("display", { exhaustive_pdea_list: [empty] }),
      "exhaustive_pdea_list.0.display_data",
    );
    const { display_data: _, ...absent } = empty;
    await refusedUnchanged(
      catalogBody("display", { exhaustive_pdea_list: [absent] }),
      "exhaustive_pdea_list.0.display_data",
    );
  });

  it("PDEA object: display_data[].display_name | UTF-8 text of the attribute name in that locale", async () => {
    const names = ["Größe", "尺码", "Цвет", "🧦 socks"];
    const body = catalogBody("utf8", {
      exhaustive_pdea_list: names.map((n, i) =>
        pdea(`name_${i}`, "string", ["de", "zh-CN", "ru", "en"][i], n),
      ),
    });
    const res = await ok(post(body));
    expect(res.exhaustive_pdea_list.map((p: Json) => p.display_data[0].display_name)).toEqual(names);
    const stored = (await list()).find((x) => x.clientCatalogId === "utf8") as Json;
    expect(stored.exhaustive_pdea_list.map((p: Json) => p.display_data[0].display_name)).toEqual(names);
  });

  it("PDEA object: display_data[].locale | language code (three letters, fil) is valid", async () => {
    const res = await ok(post(catalog("fil")));
    expect(res.exhaustive_pdea_list[0].display_data).toEqual([{ locale: "fil", display_name: "SKU" }]);
  });

  it("PDEA object: display_data[].locale | language (en) or language plus country (en-US); what Intl.getCanonicalLocales refuses is a 400", async () => {
    for (const locale of ["en", "de", "en-US", "pt-BR", "zh-Hant-TW"]) await ok(post(catalog(locale)));
    for (const locale of ["en_US", "english", "e", "en-", "123", ""]) {
      await refusedUnchanged(catalog(locale), "exhaustive_pdea_list.0.display_data.0.locale");
    }
  });

  it("PDEA object: id | assigned by the service; present in catalog retrieval", async () => {
    const created = await ok(post(catalogBody("ids", { exhaustive_pdea_list: [pdea("a"), pdea("b")] })));
    const ids = created.exhaustive_pdea_list.map((p: Json) => p.id);
    expect(ids).toEqual([expect.any(Number), expect.any(Number)]);
    expect(Number.isInteger(ids[0]) && ids[0] !== ids[1]).toBe(true);
    const stored = (await list()).find((x) => x.clientCatalogId === "ids") as Json;
    expect(stored.exhaustive_pdea_list.map((p: Json) => p.id)).toEqual(ids);
  });
});

describe("Catalog object", () => {
  it("Catalog object: clientCatalogId | unique id of the catalog (posting it again updates it, same id)", async () => {
    const first = await ok(post(catalogBody("uniq", { description: "first" })));
    const again = await ok(post(catalogBody("uniq", { description: "second" })));
    expect(again).toMatchObject({ id: first.id, clientCatalogId: "uniq", description: "second" });
    expect((await list()).filter((x) => x.clientCatalogId === "uniq")).toHaveLength(1);
  });

  it("Catalog object: description | optional", async () => {
    const res = await ok(post(catalogBody("nodesc")));
    expect(res).toMatchObject({ id: expect.any(Number), clientCatalogId: "nodesc", description: null });
  });

  it("Catalog object: exhaustive_pdea_list | may be empty", async () => {
    const res = await ok(post(catalogBody("empty", { exhaustive_pdea_list: [] })));
    expect(res).toMatchObject({ clientCatalogId: "empty", exhaustive_pdea_list: [] });
  });
});

describe("Catalog decisions (docs/decisions.md#catalog)", () => {
  it("Catalog: exhaustive_pdea_list | an update replaces the list; a PDEA keeps its id while its field_name stays (decision)", async () => {
    const first = await ok(post(catalogBody("replace", { exhaustive_pdea_list: [pdea("a"), pdea("b")] })));
    const next = await ok(
      post(catalogBody("replace", { exhaustive_pdea_list: [pdea("a", "integer"), pdea("c")] })),
    );
    expect(next.exhaustive_pdea_list.map((p: Json) => p.field_name)).toEqual(["a", "c"]);
    expect(next.exhaustive_pdea_list[0]).toMatchObject({
      id: first.exhaustive_pdea_list[0].id,
      field_data_type: "integer",
    });
    expect(first.exhaustive_pdea_list.map((p: Json) => p.id)).not.toContain(next.exhaustive_pdea_list[1].id);
  });

  it("Catalog: id | accepted and ignored, so a retrieved catalog can be posted back; unknown members are a 400 (decision)", async () => {
    const stored = (await list()).find((x) => x.clientCatalogId === "replace") as Json;
    expect(await ok(post(stored))).toEqual(stored);
    await refusedUnchanged({ ...stored, colour: "blue" }, "(body)");
    const withExtra = { ...stored, exhaustive_pdea_list: [{ ...pdea("a"), colour: "blue" }] };
    await refusedUnchanged(withExtra, "exhaustive_pdea_list.0");
  });
});

describe("Endpoints: Catalog", () => {
  it("Catalog: List catalogs | 200: JSON list of Catalog objects with ids; 401 unauthorized", async () => {
    await ok(post(catalog("en")));
    const found = (await list()).find((x) => x.clientCatalogId === "cat-en");
    expect(found).toMatchObject({
      id: expect.any(Number),
      exhaustive_pdea_list: [{ id: expect.any(Number) }],
    });
    const res = await c.t.request(CATALOG);
    expect([res.status, ((await res.json()) as Json).code]).toEqual([401, "unauthorized"]);
    const bad = await c.t.request(CATALOG, { headers: { Authorization: "Bearer not-a-token" } });
    expect(bad.status).toBe(401);
  });

  it("Catalog: Create or update catalog | 200: the created or modified Catalog object (no event: nothing is notified)", async () => {
    await c.mark();
    const res = await ok(post({ ...catalog("en"), description: "changed" }));
    expect(res).toMatchObject({ id: expect.any(Number), clientCatalogId: "cat-en", description: "changed" });
    expect((await list()).find((x) => x.clientCatalogId === "cat-en")).toEqual(res);
    expect(await c.since()).toEqual([]);
  });

  it("Catalog: Create or update catalog | 400 bad data (each kind names its field, nothing changed)", async () => {
    const cases: Array<[unknown, string]> = [
      [{ exhaustive_pdea_list: [] }, "clientCatalogId"],
      [{ clientCatalogId: "x" }, "exhaustive_pdea_list"],
      [{ clientCatalogId: "x", exhaustive_pdea_list: {} }, "exhaustive_pdea_list"],
      [{ clientCatalogId: 7, exhaustive_pdea_list: [] }, "clientCatalogId"],
      [{ clientCatalogId: "x", description: 5, exhaustive_pdea_list: [] }, "description"],
      [
        catalogBody("x", { exhaustive_pdea_list: [{ field_data_type: "string", display_data: [] }] }),
        "exhaustive_pdea_list.0.field_name",
      ],
      [
        catalogBody("x", { exhaustive_pdea_list: [pdea("a"), pdea("a")] }),
        "exhaustive_pdea_list.1.field_name",
      ],
      [
        catalogBody("x", { exhaustive_pdea_list: [{ ...pdea("a"), display_data: [{ locale: "en" }] }] }),
        "exhaustive_pdea_list.0.display_data.0.display_name",
      ],
    ];
    for (const [body, path] of cases) await refusedUnchanged(body, path);
  });

  it("Catalog: Create or update catalog over MQTT (upsert_catalog) | the created or modified Catalog object; bad data refused the same way", async () => {
    const created = JSON.parse(
      await upsertOverMqtt(catalogBody("mqtt", { description: "over mqtt" })),
    ) as Json;
    expect(created).toMatchObject({
      status: "ok",
      error: null,
      data: { id: expect.any(Number), clientCatalogId: "mqtt", description: "over mqtt" },
    });
    const updated = JSON.parse(await upsertOverMqtt(catalogBody("mqtt", { description: "again" }))) as Json;
    expect(updated.data).toMatchObject({ id: created.data.id, description: "again" });
    expect((await list()).find((x) => x.clientCatalogId === "mqtt")).toEqual(updated.data);
    const before = JSON.stringify(await list());
    refusedOverMqtt(
      await upsertOverMqtt(catalogBody("mqtt", { exhaustive_pdea_list: [pdea("a", "date")] })),
      400,
      "validation_failed",
      "exhaustive_pdea_list.0.field_data_type",
    );
    expect(JSON.stringify(await list())).toBe(before);
  });

  it("Catalog: Delete a catalog | not shown (no endpoint defined) → DELETE on the catalog path is 405, on a catalog id 404 (decision)", async () => {
    await ok(post(catalogBody("kept")));
    const del = await c.t.call("DELETE", CATALOG);
    expect([del.status, ((await del.json()) as Json).code]).toEqual([405, "method_not_allowed"]);
    expect(del.headers.get("allow")?.split(/,\s*/).sort()).toEqual(["GET", "POST"]);
    const one = await c.t.call("DELETE", `${CATALOG}/kept`);
    expect([one.status, ((await one.json()) as Json).code]).toEqual([404, "route_not_found"]);
    expect((await list()).some((x) => x.clientCatalogId === "kept")).toBe(true);
  });
});
