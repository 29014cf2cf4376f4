import bwipjs from "bwip-js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  code128SymbolChars,
  dotsPerModule,
  isSscc,
  olpnFault,
  olpnRefusal,
  olpnSymbol,
  symbolCharCapacity,
  symbolModules,
} from "../../../src/domain/olpn-symbol.js";
import { olpnBarcode } from "../../../src/labels/olpn-barcode.js";

/** Data symbol characters of bwip-js's Code 128 of `text`, from its width at one pixel per module. */
async function bwipChars(text: string): Promise<number> {
  const png = await bwipjs.toBuffer({ bcid: "code128", text, scale: 1, height: 1 });
  return (png.readUInt32BE(16) - 13) / 11 - 2;
}

describe("the OLPN's barcode", () => {
  it("is GS1-128 with AI (00) for an SSCC-18 with a valid check digit, Code 128 otherwise", () => {
    expect(isSscc("003456789012345678")).toBe(false);
    expect(isSscc("034567890123456786")).toBe(true);
    expect(olpnSymbol("034567890123456786")).toMatchObject({
      bcid: "gs1-128",
      text: "(00)034567890123456786",
    });
    expect(olpnSymbol("034567890123456787")).toMatchObject({ bcid: "code128", text: "034567890123456787" });
    expect(olpnSymbol("KARTON-001")).toMatchObject({ bcid: "code128", symbolChars: 10 });
  });

  it("counts the symbol characters bwip-js encodes: subset C for digit pairs", async () => {
    expect(code128SymbolChars("12345678")).toBe(4);
    expect(code128SymbolChars("ABC")).toBe(3);
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[0-9A-Z-]{1,30}$/), async (s) => {
        expect(code128SymbolChars(s)).toBe(await bwipChars(s));
      }),
      { numRuns: 150 },
    );
  });

  it("carries 19 symbol characters across 812 dots at 3 dots per module, 10-module quiet zones included", () => {
    expect(symbolModules(19)).toBe(264);
    expect(symbolModules(19) * 3).toBeLessThanOrEqual(812);
    expect(symbolModules(20) * 3).toBeGreaterThan(812);
    expect(symbolCharCapacity(812, 3)).toBe(19);
    // a 40-character alphanumeric OLPN: 43 × 11 + 2 + 20 = 495 modules, 1485 dots at 3 per module
    expect(symbolModules(40) * 3).toBe(1485);
    // an SSCC at GS1's 4 dots (0.5 mm) per module: 176 modules, 704 dots
    expect(dotsPerModule(olpnSymbol("034567890123456786"))).toBe(4);
  });

  it("refuses non-ASCII and control characters and what does not fit, in words", () => {
    expect(olpnFault("KARTON-Ż-001")).toMatch(/holds 'Ż' \(U\+017B\).*printable ASCII only/);
    expect(olpnFault("A\tB")).toMatch(/control character U\+0009/);
    expect(olpnFault("A".repeat(19))).toBeUndefined();
    expect(olpnFault("A".repeat(20))).toMatch(/needs 20 Code 128 characters.*more than the 19/);
    expect(olpnFault("1".repeat(38))).toBeUndefined();
  });

  it("accepts at create only what still fits with a closed box's suffix -99: 16 characters, 30 digits", () => {
    expect(olpnRefusal("A".repeat(16))).toBeUndefined();
    expect(olpnRefusal("A".repeat(17))).toMatch(/suffix '-99'.*at most 16 characters, or 30 digits/);
    expect(olpnRefusal("1".repeat(30))).toBeUndefined();
    expect(olpnRefusal("1".repeat(31))).toMatch(/at most 16 characters, or 30 digits/);
    expect(olpnRefusal("034567890123456786")).toBeUndefined();
  });

  it("draws bars of a whole number of dots, as wide as 812 dots allow", async () => {
    const one = await olpnBarcode("A");
    expect(one.dotsPerModule).toBe(8);
    const long = await olpnBarcode("A".repeat(19));
    expect(long.dotsPerModule).toBe(3);
    expect(long.widthDots).toBe((19 + 2) * 11 * 3 + 13 * 3);
    await expect(olpnBarcode("A".repeat(20))).rejects.toThrow(/the OLPN 'A{20}' needs 20/);
  });
});
