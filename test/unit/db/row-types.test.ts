import { getTableColumns, type Table } from "drizzle-orm";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type AuditRow, createAuditsRepo } from "../../../src/db/audits.repo.js";
import type { TokenRow } from "../../../src/db/auth.repo.js";
import { createItemsRepo, type ItemRow } from "../../../src/db/items.repo.js";
import { createMqttRepo } from "../../../src/db/mqtt.repo.js";
import { openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo } from "../../../src/db/outbox.repo.js";
import { createReportsRepo } from "../../../src/db/reports.repo.js";
import { type ActualRow, createRequestsRepo, type RequestRow } from "../../../src/db/requests.repo.js";
import type { SqlRow } from "../../../src/db/row.types.js";
import { createStationRepo, type StationMode } from "../../../src/db/station.repo.js";
import { createStockRepo } from "../../../src/db/stock.repo.js";
import * as schema from "../../../src/db/tables.js";

/** Property names of a table's columns, sorted: what a whole-row raw statement must alias to. */
function columnsOf(table: Table): string[] {
  return Object.keys(getTableColumns(table)).sort();
}

function keysOf(row: object | undefined): string[] {
  expect(row).toBeDefined();
  return Object.keys(row ?? {}).sort();
}

describe("row types follow the schema", () => {
  it("types raw rows from the tables (checked by tsc)", () => {
    // A whole row has exactly the table's columns; enum columns keep their unions.
    expectTypeOf<keyof RequestRow>().toEqualTypeOf<keyof typeof schema.serviceRequests.$inferSelect>();
    expectTypeOf<RequestRow["type"]>().toEqualTypeOf<"PICK" | "PUT">();
    expectTypeOf<StationMode>().toEqualTypeOf<"pick" | "put" | "audit">();
    expectTypeOf<ActualRow["lineId"]>().toEqualTypeOf<number | null>();
    // Boolean-mode columns come back from raw statements as the stored 0/1, from drizzle as booleans.
    expectTypeOf<AuditRow["kq"]>().toEqualTypeOf<number>();
    expectTypeOf<ItemRow["ownSchema"]>().toEqualTypeOf<number>();
    expectTypeOf<TokenRow["revoked"]>().toEqualTypeOf<boolean>();
    expectTypeOf<SqlRow<typeof schema.tokens>["revoked"]>().toEqualTypeOf<number>();
    // A column the table does not have cannot be picked into a row type.
    // @ts-expect-error "noSuchColumn" is not a column of service_requests
    expectTypeOf<Pick<RequestRow, "noSuchColumn">>().not.toBeNever();
  });

  it("whole-row statements select every column of their table, under the schema's names", () => {
    const h = openDatabase(":memory:");
    const now = 1_000;
    const station = createStationRepo(h.sqlite);
    station.init(["front"], ["1"], "pick", now);
    expect(keysOf(station.seat("front"))).toEqual(columnsOf(schema.seats));

    const items = createItemsRepo(h.sqlite);
    const itemId = items.insert(
      {
        clientItemId: "C-1",
        productSku: "SKU-1",
        clientCategoryId: null,
        schemaJson: "{}",
        ownSchema: true,
        doc: '{"productAttributes":{}}',
      },
      now,
    );
    items.syncBarcodes(itemId, [{ barcode: "B-1", levelPath: null }]);
    items.replaceIdentities(itemId, [{ groupKey: "sku", tuple: "SKU-1" }]);
    const item = items.get(itemId);
    expect(keysOf(item)).toEqual(columnsOf(schema.items));
    expect(item?.ownSchema).toBe(1);
    expect(keysOf(items.barcodesOf(itemId)[0])).toEqual(columnsOf(schema.barcodes));
    expect(keysOf(items.holdersOf([{ groupKey: "sku", tuple: "SKU-1" }])[0])).toEqual(
      columnsOf(schema.itemIdentities),
    );

    const stock = createStockRepo(h.sqlite);
    stock.upsertLocation("L-1", "MSU-1");
    stock.add("L-1", itemId, 5);
    stock.presentRack("MSU-1", now);
    expect(keysOf(stock.location("L-1"))).toEqual(columnsOf(schema.locations));
    expect(keysOf(stock.stockAt("L-1", itemId))).toEqual(columnsOf(schema.stock));
    expect(keysOf(stock.racks()[0])).toEqual(columnsOf(schema.racks));

    const requests = createRequestsRepo(h.sqlite);
    const requestId = requests.insert({
      externalId: "SR-1",
      type: "PICK",
      state: "created",
      status: "CREATED",
      requestJson: "{}",
      attributesJson: "{}",
      expectationsJson: null,
      isPack: 0,
      binId: null,
      priorityRank: 2,
      pickBefore: null,
      pickAfter: null,
      executionJson: null,
      receivedOn: now,
      createdOn: now,
      updatedOn: now,
    });
    const lineId = requests.insertLine({
      requestId,
      externalId: "LINE-1",
      position: 0,
      state: "created",
      expected: 1,
      picked: 0,
      short: 0,
      filtersJson: "[]",
      attributesJson: "{}",
      expectationIdsJson: "{}",
      createdOn: now,
      updatedOn: now,
    });
    requests.addReservation({ lineId, location: "L-1", itemId, quantity: 1 });
    requests.insertActual({
      id: requests.nextEntityId("container"),
      requestId,
      lineId,
      state: "picked",
      location: "L-1",
      itemId,
      quantity: 1,
      productJson: "{}",
      productId: null,
      contextJson: "{}",
      createdOn: now,
    });
    expect(keysOf(requests.byId(requestId))).toEqual(columnsOf(schema.serviceRequests));
    expect(keysOf(requests.lines(requestId)[0])).toEqual(columnsOf(schema.pickLines));
    expect(keysOf(requests.reservationsOfRequest(requestId)[0])).toEqual(columnsOf(schema.reservations));
    expect(keysOf(requests.actuals(requestId)[0])).toEqual(columnsOf(schema.actuals));

    const audits = createAuditsRepo(h.sqlite);
    const audit = audits.insert(
      {
        auditId: "A-1",
        name: "count",
        paramType: "location",
        paramValueJson: '["L-1"]',
        kq: true,
        creatorName: null,
        userName: null,
      },
      now,
    );
    expect(keysOf(audit)).toEqual(columnsOf(schema.audits));
    expect(audit.kq).toBe(1);

    const outbox = createOutboxRepo(h.sqlite, { site: "dc1", ppsId: "7" });
    outbox.append("bin_complete", {}, now);
    expect(keysOf(outbox.after(0, 1)[0])).toEqual(columnsOf(schema.outbox));

    const mqtt = createMqttRepo(h.sqlite);
    mqtt.inboxPut({ txnId: "T-1", name: "n", requestHash: "h", response: "{}", createdAt: now });
    expect(keysOf(mqtt.inboxGet("T-1"))).toEqual(columnsOf(schema.mqttInbox));

    const reports = createReportsRepo(h.sqlite);
    expect(keysOf(reports.get(reports.insert("inventory", now)))).toEqual(columnsOf(schema.reports));
    h.close();
  });
});
