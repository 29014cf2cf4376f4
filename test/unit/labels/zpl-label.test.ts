import { describe, expect, it } from "vitest";
import type { LabelData } from "../../../src/domain/label-data.js";
import { isSscc } from "../../../src/domain/olpn-symbol.js";
import { MEDIA_4X6, MEDIA_A6 } from "../../../src/labels/media.js";
import {
  ADDRESS_MAX_LINES,
  code128Data,
  renderZplLabel,
  zplFieldData,
} from "../../../src/labels/zpl-label.js";

const DATA: LabelData = {
  externalServiceRequestId: "PL1",
  olpn: "BOX-7",
  orderNumber: "O-7",
  shippingAddress: "Jane Roe\n1 Main St\n10115 Berlin",
  station: "7/B1",
  lines: [{ product: "PK", quantity: 2 }],
  printedAt: "2026-11-21T10:00:00.000Z",
};

/** The field data of every `^FD…^FS` in order. */
const fields = (zpl: string) => [...zpl.matchAll(/\^FD(.*?)\^FS/gs)].map((m) => m[1]);

describe("the ZPL shipping label", () => {
  it("is one UTF-8 format the width of a 4-inch head: ^XA ^CI28 ^PW812 ^LL1218 … ^XZ", () => {
    const zpl = renderZplLabel(DATA, MEDIA_4X6);
    expect(zpl.startsWith("^XA\n^CI28\n^PW812\n^LL1218\n")).toBe(true);
    expect(zpl.trimEnd().endsWith("^XZ")).toBe(true);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
  });

  it("A6 is laid out within the head's 812 dots, as long as the media", () => {
    const zpl = renderZplLabel(DATA, MEDIA_A6);
    expect(zpl).toContain("^PW812\n");
    expect(zpl).toContain("^LL1183\n");
  });

  it("draws the OLPN with the printer's Code 128 at 3 dots a module, and a DataMatrix of <olpn>|<id>", () => {
    const zpl = renderZplLabel(DATA, MEDIA_4X6);
    expect(zpl).toMatch(/\^BY3\n\^FO\d+,\d+\^BCN,200,N,N,N,N\^FH_\^FD>:BOX-7\^FS/);
    expect(zpl).toMatch(/\^BXN,5,200\^FH_\^FDBOX-7\|PL1\^FS/);
    expect(fields(zpl)).toContain("BOX-7");
  });

  it("an SSCC-18 is GS1-128: start C, FNC1, AI 00, its human-readable line with (00)", () => {
    const sscc = "034567890123456786";
    expect(isSscc(sscc)).toBe(true);
    expect(isSscc("034567890123456780")).toBe(false);
    const zpl = renderZplLabel({ ...DATA, olpn: sscc }, MEDIA_4X6);
    expect(zpl).toContain(`^BCN,200,N,N,N,N^FH_^FD>;>800${sscc}^FS`);
    expect(fields(zpl)).toContain(`(00) ${sscc}`);
    // 18 digits with a wrong check digit are a plain Code 128 in subset C, no FNC1
    expect(code128Data("034567890123456780").data).toBe(">;034567890123456780");
  });

  it("digit runs go in subset C, the rest in B, `>` doubled as ZPL asks", () => {
    expect(code128Data("KARTON-123456")).toEqual({
      data: ">:KARTON->5123456",
      symbols: 2 + 7 + 1 + 3,
      gs1: false,
    });
    expect(code128Data("12345A")).toEqual({
      data: ">:1>52345>6A",
      symbols: 2 + 1 + 1 + 2 + 1 + 1,
      gs1: false,
    });
    expect(code128Data("A>B").data).toBe(">:A><B");
    expect(() => code128Data("KARTON-Ż-001")).toThrow(/Code 128 barcode cannot hold/);
  });

  it("an OLPN too long for 3 dots a module across the label is refused in words, not squeezed", () => {
    expect(() => renderZplLabel({ ...DATA, olpn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ" }, MEDIA_4X6)).toThrow(
      /the OLPN 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' is too long for its barcode: .* need \d+ dots, the label has 812/,
    );
    // a long OLPN of digits fits: subset C holds two digits a symbol; its line of text fits the label too
    const digits = "1".repeat(38);
    const zpl = renderZplLabel({ ...DATA, olpn: digits }, MEDIA_4X6);
    expect(zpl).toContain(`^FD>;${digits}^FS`);
    expect(zpl).toContain(`^A0N,30,30^FH_^FD${digits}^FS`);
    expect(() => renderZplLabel({ ...DATA, olpn: "1".repeat(40) }, MEDIA_4X6)).toThrow(/too long/);
  });

  it("field data cannot carry ZPL: ^, ~, _ and control characters are hex escaped under ^FH", () => {
    expect(zplFieldData("a^b~c_d\u0001")).toBe("a_5Eb_7Ec_5Fd_01");
    const evil = "Jane^XZ^XA^FO0,0^FDPWNED^FS~JA\n1 Main St";
    const zpl = renderZplLabel({ ...DATA, shippingAddress: evil }, MEDIA_4X6);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).not.toContain("~JA");
    expect(fields(zpl)).toContain("Jane_5EXZ_5EXA_5EFO0,0_5EFDPWNED_5EFS_7EJA");
    // every field is escaped
    expect(zpl.match(/\^FD/g)?.length).toBe(zpl.match(/\^FH_\^FD|\^FDOLPN\^FS/g)?.length);
  });

  it("lists what went into the box: up to four lines, then how many more; a name too long is marked cut", () => {
    const lines = [
      { product: "PK", quantity: 2 },
      { product: `SHIRT-${"X".repeat(40)}`, quantity: 1 },
      { product: "C", quantity: 3 },
      { product: "D", quantity: 4 },
      { product: "E", quantity: 5 },
    ];
    const shown = fields(renderZplLabel({ ...DATA, lines }, MEDIA_4X6));
    expect(shown).toContain("2 x PK");
    expect(shown.find((f) => f?.startsWith("1 x SHIRT-"))).toMatch(/^1 x SHIRT-X+\.\.\.$/);
    expect(shown).toContain("3 x C");
    expect(shown).not.toContain("4 x D");
    expect(shown).toContain("+ 2 more lines");
    expect(fields(renderZplLabel({ ...DATA, lines: lines.slice(0, 4) }, MEDIA_4X6))).toContain("4 x D");
  });

  it("text goes as UTF-8 (Polish, Czech, Turkish, Greek, Cyrillic), unchanged", () => {
    const address = "Łódź ul. Żółta 5\nŘečkovice, İzmir, Şişli\nΑθήνα\nМосква";
    const zpl = renderZplLabel({ ...DATA, shippingAddress: address }, MEDIA_4X6);
    for (const line of address.split("\n")) expect(fields(zpl)).toContain(line);
    expect(renderZplLabel(DATA, MEDIA_4X6, { font: "E:TT0003M_.TTF" })).toContain(
      "^A@N,36,36,E:TT0003M_.TTF^FH_^FDJane Roe^FS",
    );
  });

  it("text the resident font has no glyph for is refused in words; a font named on the printer takes it", () => {
    const chinese = { ...DATA, shippingAddress: "北京市朝阳区" };
    expect(() => renderZplLabel(chinese, MEDIA_4X6)).toThrow(
      "the shipping address holds Chinese characters (北, 京, 市, 朝, 阳, …), which the label cannot print",
    );
    const font = { font: "E:ANMDJ.TTF" };
    expect(fields(renderZplLabel(chinese, MEDIA_4X6, font))).toContain("北京市朝阳区");
    // no ZPL font joins Arabic letters or orders them right to left: refused whatever the font
    expect(() => renderZplLabel({ ...DATA, shippingAddress: "القاهرة" }, MEDIA_4X6, font)).toThrow(
      /^the shipping address holds Arabic characters .*, which the label cannot print/,
    );
  });

  it("a long address is wrapped, every word kept; one that does not fit is refused in words", () => {
    const five = Array.from({ length: 5 }, (_, i) => `Line${i} ${"word ".repeat(11)}end${i}`.trim());
    const zpl = renderZplLabel({ ...DATA, shippingAddress: five.join("\n") }, MEDIA_4X6);
    const printed = fields(zpl).join(" ");
    for (const line of five) for (const word of line.split(" ")) expect(printed).toContain(word);
    const tooLong = Array.from({ length: ADDRESS_MAX_LINES + 1 }, (_, i) => `line ${i}`).join("\n");
    expect(() => renderZplLabel({ ...DATA, shippingAddress: tooLong }, MEDIA_4X6)).toThrow(
      `the shipping address does not fit the label: ${ADDRESS_MAX_LINES + 1} lines, room for ${ADDRESS_MAX_LINES}`,
    );
  });
});
