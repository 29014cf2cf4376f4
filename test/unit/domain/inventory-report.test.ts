import { describe, expect, it } from "vitest";
import { csvField, inventoryCsv } from "../../../src/domain/inventory-report.js";
import { publicBaseUrl } from "../../../src/services/report/report.service.js";

const sku = { unique: [["product_sku"]], type: "object" as const };

describe("inventory CSV (RFC 4180)", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\r", '"cr\r"'],
    ["", ""],
  ])("field %j → %j", (value, quoted) => {
    expect(csvField(value)).toBe(quoted);
  });

  it("an empty stock gives the header alone", () => {
    expect(inventoryCsv([])).toBe("product_sku,quantity\r\n");
  });

  it("columns: product_sku first, then unique names as first met; numbers and booleans as text", () => {
    const csv = inventoryCsv([
      {
        schema: { unique: [["client_id", "product_sku"]], type: "object" },
        attrs: { product_sku: "A", client_id: 7 },
        quantity: 2,
      },
      {
        schema: { unique: [["product_sku"], ["lot", "sealed"]], type: "object" },
        attrs: { product_sku: "B", lot: "L1", sealed: true },
        quantity: 1,
      },
      { schema: sku, attrs: { product_sku: "C", lot: "ignored: not unique here" }, quantity: 9 },
    ]);
    expect(csv).toBe("product_sku,client_id,lot,sealed,quantity\r\nA,7,,,2\r\nB,,L1,true,1\r\nC,,,,9\r\n");
  });

  it("each row names its own item (docs/decisions.md#item-identity): one row per item of a shared SKU, each with its own unique fields only", () => {
    const byClient = { unique: [["product_sku", "client_id"]], type: "object" as const };
    const byEan = { unique: [["ean"]], type: "object" as const };
    const csv = inventoryCsv([
      { schema: byClient, attrs: { product_sku: "SOCK", client_id: "C1", ean: "401" }, quantity: 1 },
      { schema: byClient, attrs: { product_sku: "SOCK", client_id: "C2" }, quantity: 2 },
      { schema: byEan, attrs: { product_sku: "SOCK", ean: "402", client_id: "C1" }, quantity: 3 },
    ]);
    expect(csv).toBe("product_sku,client_id,ean,quantity\r\nSOCK,C1,,1\r\nSOCK,C2,,2\r\nSOCK,,402,3\r\n");
  });
});

describe("public base URL of report links", () => {
  it("uses http.publicUrl when set", () => {
    expect(publicBaseUrl({ host: "0.0.0.0", port: 8080, publicUrl: "https://pps.example" }, "box")).toBe(
      "https://pps.example",
    );
  });
  it("else http://host:port, the machine name for a wildcard host, brackets for IPv6", () => {
    expect(publicBaseUrl({ host: "10.0.0.5", port: 8080 }, "box")).toBe("http://10.0.0.5:8080");
    expect(publicBaseUrl({ host: "0.0.0.0", port: 8080 }, "box")).toBe("http://box:8080");
    expect(publicBaseUrl({ host: "::", port: 8080 }, "box")).toBe("http://box:8080");
    expect(publicBaseUrl({ host: "fd00::5", port: 80 }, "box")).toBe("http://[fd00::5]:80");
  });
});
