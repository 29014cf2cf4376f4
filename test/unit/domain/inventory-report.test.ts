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
    expect(csv).toBe(
      "product_sku,client_id,lot,sealed,quantity\r\nA,7,,,2\r\nB,,L1,true,1\r\nC,,ignored: not unique here,,9\r\n",
    );
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
