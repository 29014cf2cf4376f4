import { describe, expect, it } from "vitest";
import { GS, gs1CheckDigit, gtinForms, looksGs1, parseGs1 } from "../../../src/domain/gs1.js";

/**
 * Examples as the GS1 General Specifications print them (GTIN 09501101530003 and 09506000134352 are
 * GS1's own example GTINs; "(01)09501101530003(17)140704(10)AB-123" is the element string of its
 * GS1-128 and GS1 DataMatrix examples), and the walkthrough's EAN-13 4006381333931 as a GTIN-14.
 */
describe("GS1 element strings", () => {
  it("computes the check digit of GS1's example GTINs (§7.9.1)", () => {
    expect(gs1CheckDigit("0950110153000")).toBe(3);
    expect(gs1CheckDigit("0950600013435")).toBe(2);
    expect(gs1CheckDigit("400638133393")).toBe(1);
  });

  it("reads the human-readable form (01)…(17)…(10)…", () => {
    const r = parseGs1("(01)09501101530003(17)140704(10)AB-123");
    expect(r).toEqual({
      ok: true,
      values: { gtin: "09501101530003", expiry: "140704", lot: "AB-123" },
      elements: [
        { ai: "01", value: "09501101530003" },
        { ai: "17", value: "140704" },
        { ai: "10", value: "AB-123" },
      ],
    });
  });

  it("reads a GS1 DataMatrix scan (]d2) with FNC1 as GS after a variable-length element", () => {
    const r = parseGs1(`]d20109506000134352${"10"}LOT7${GS}21SN-0001${GS}17251231`);
    expect(r).toMatchObject({
      ok: true,
      values: { gtin: "09506000134352", lot: "LOT7", serial: "SN-0001", expiry: "251231" },
    });
  });

  it("reads a GS1-128 scan (]C1) whose last element needs no separator", () => {
    expect(parseGs1("]C10104006381333931172705002112345")).toMatchObject({
      ok: true,
      values: { gtin: "04006381333931", expiry: "270500", serial: "12345" },
    });
  });

  it("reads a GS1 QR Code scan (]Q3) and one that starts with FNC1 as GS", () => {
    expect(parseGs1("]Q30109501101530003")).toMatchObject({ ok: true, values: { gtin: "09501101530003" } });
    expect(parseGs1(`${GS}0109501101530003${"10"}X1`)).toMatchObject({ ok: true, values: { lot: "X1" } });
  });

  it("skips an AI of predefined length it does not read (11: production date)", () => {
    expect(parseGs1("]C1010950110153000311240101" + "21A")).toMatchObject({
      ok: true,
      values: { gtin: "09501101530003", serial: "A" },
    });
  });

  it("leaves an ordinary barcode alone (null): EAN-13, Code 128 text", () => {
    expect(parseGs1("4006381333931")).toBeNull();
    expect(parseGs1("TOTE-7")).toBeNull();
    expect(looksGs1("]E04006381333931")).toBe(false);
  });

  it("refuses a GTIN of the wrong length (odd length, cut short)", () => {
    expect(parseGs1("]C1010950110153")).toMatchObject({ ok: false, error: "bad_length", ai: "01" });
    expect(parseGs1("(01)0950110153000")).toMatchObject({ ok: false, error: "bad_length", ai: "01" });
    expect(parseGs1("]C11714070")).toMatchObject({ ok: false, error: "bad_length", ai: "17" });
  });

  it("refuses a GTIN with a wrong check digit, and letters in a numeric AI", () => {
    expect(parseGs1("(01)09501101530004")).toMatchObject({ ok: false, error: "bad_value", ai: "01" });
    expect(parseGs1("(17)14O704")).toMatchObject({ ok: false, error: "bad_value", ai: "17" });
  });

  it("refuses an unknown AI of unknown length", () => {
    expect(parseGs1("]C1990000")).toMatchObject({ ok: false, error: "unknown_ai", ai: "99" });
    expect(parseGs1("(99)ABC")).toMatchObject({ ok: false, error: "unknown_ai", ai: "99" });
    expect(parseGs1("]C1AB")).toMatchObject({ ok: false, error: "unknown_ai" });
  });

  it("refuses a serial or lot over 20 characters, empty, or outside set 82", () => {
    expect(parseGs1(`(21)${"A".repeat(21)}`)).toMatchObject({ ok: false, error: "bad_length", ai: "21" });
    expect(parseGs1("(10)")).toMatchObject({ ok: false, error: "bad_length", ai: "10" });
    expect(parseGs1("(21)AB#1")).toMatchObject({ ok: false, error: "bad_value", ai: "21" });
    expect(parseGs1("(21)AB 1")).toMatchObject({ ok: false, error: "bad_value", ai: "21" });
  });

  it("refuses a repeated AI and an identifier with nothing after it", () => {
    expect(parseGs1("(10)A(10)B")).toMatchObject({ ok: false, error: "repeated_ai", ai: "10" });
    expect(parseGs1("]d2")).toMatchObject({ ok: false, error: "empty" });
  });

  it("lists the barcodes a GTIN may be known under", () => {
    expect(gtinForms("04006381333931")).toEqual(["04006381333931", "4006381333931"]);
    expect(gtinForms("00012345678905")).toEqual(["00012345678905", "0012345678905", "012345678905"]);
    expect(gtinForms("00000096385074")).toEqual([
      "00000096385074",
      "0000096385074",
      "000096385074",
      "96385074",
    ]);
  });
});
