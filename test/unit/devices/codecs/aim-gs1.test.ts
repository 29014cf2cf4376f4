import { describe, expect, it } from "vitest";
import { parseAim, splitAim } from "../../../../src/devices/codecs/aim.js";
import { GS, gs1CheckDigit, hasValidCheckDigit, parseGs1 } from "../../../../src/devices/codecs/gs1.js";
import { interpretScan } from "../../../../src/devices/codecs/scan-interpret.js";

describe("AIM symbology identifiers [SRC 25, 26]", () => {
  it.each([
    ["]C0", undefined, "code128", false],
    ["]C1", undefined, "gs1-128", true],
    ["]E0", 13, "ean13", false],
    ["]E0", 12, "upca", false],
    ["]E0", 8, "upce", false],
    ["]E4", 8, "ean8", false],
    ["]e0", undefined, "gs1-databar", true],
    ["]d1", undefined, "data-matrix", false],
    ["]d2", undefined, "data-matrix", true],
    ["]d5", undefined, "data-matrix", true],
    ["]Q1", undefined, "qr-code", false],
    ["]Q3", undefined, "qr-code", true],
    ["]Q4", undefined, "qr-code", true],
    ["]I1", undefined, "itf", false],
    ["]A0", undefined, "code39", false],
    ["]X0", undefined, "other", false],
    ["]Z6", undefined, "no-barcode", false],
    ["]?0", undefined, "unknown", false],
  ] as const)("%s (data length %s) is %s, gs1=%s", (id, len, symbology, gs1) => {
    expect(parseAim(id, len)).toMatchObject({ id, symbology, gs1 });
  });

  it("marks FNC1 in second position for ]d3 and ]Q5", () => {
    expect(parseAim("]d3")?.fnc1).toBe("second");
    expect(parseAim("]Q5")?.fnc1).toBe("second");
    expect(parseAim("]d2")?.fnc1).toBe("first");
  });

  it("rejects text that is not an AIM id", () => {
    expect(parseAim("C1")).toBeNull();
    expect(parseAim("[C1")).toBeNull();
    expect(parseAim("]C")).toBeNull();
    expect(splitAim("4006381333931")).toEqual({ aim: null, data: "4006381333931" });
  });

  it("splits a leading AIM id and uses the remaining length for ]E0", () => {
    const { aim, data } = splitAim("]E0036000241457");
    expect(data).toBe("036000241457");
    expect(aim?.symbology).toBe("upca");
  });
});

describe("GS1 check digit (mod 10, weights 3,1 from the right) [SRC 49]", () => {
  it.each([
    ["03600024145", 7],
    ["10614141123456789", 7],
    ["0950110153000", 3],
  ])("%s -> %i", (digits, check) => {
    expect(gs1CheckDigit(digits)).toBe(check);
    expect(hasValidCheckDigit(`${digits}${check}`)).toBe(true);
    expect(hasValidCheckDigit(`${digits}${(check + 1) % 10}`)).toBe(false);
  });
});

describe("GS1 element strings [SRC 26]", () => {
  it("reads fixed-length AIs back to back and a variable AI ended by GS", () => {
    const r = parseGs1(`0109501101530003172512311012AB${GS}21S/N 7`.replace(" ", ""));
    expect(r).toEqual({
      ok: true,
      elements: [
        { ai: "01", title: "GTIN", value: "09501101530003" },
        { ai: "17", title: "USE BY", value: "251231" },
        { ai: "10", title: "BATCH/LOT", value: "12AB" },
        { ai: "21", title: "SERIAL", value: "S/N7" },
      ],
    });
  });

  it("reads an SSCC, a 4-digit weight AI and a 3-digit GLN AI", () => {
    const r = parseGs1("001061414112345678973103001250410095011015300 7".replace(" ", ""));
    expect(r.ok && r.elements.map((e) => [e.ai, e.value])).toEqual([
      ["00", "106141411234567897"],
      ["3103", "001250"],
      ["410", "0950110153007"],
    ]);
    // the same GLN with a wrong check digit is refused at the element's start
    expect(parseGs1("0010614141123456789731030012504100950110153000")).toMatchObject({
      ok: false,
      reason: "bad-check-digit",
      at: 30,
      ai: "410",
    });
  });

  it("accepts a trailing GS and a GS after a fixed-length element", () => {
    const r = parseGs1(`0109501101530003${GS}10LOT1${GS}`);
    expect(r.ok && r.elements.map((e) => e.ai)).toEqual(["01", "10"]);
  });

  it.each([
    ["", "empty", 0],
    ["0109501101530004", "bad-check-digit", 0],
    ["01095011015300", "too-short", 0],
    [`0109501101530003${GS}99`, "bad-format", 17],
    ["0109501101530003" + "88ABC", "unknown-ai", 16],
    [`10${"X".repeat(21)}`, "bad-format", 0],
    ["11251399", "ok", 0],
    ["17ABCDEF", "bad-format", 0],
  ])("%j -> %s at %i", (input, reason, at) => {
    const r = parseGs1(input);
    if (reason === "ok") expect(r.ok).toBe(true);
    else expect(r).toMatchObject({ ok: false, reason, at });
  });
});

describe("interpretScan", () => {
  it("uses the AIM from a HID POS report and parses GS1 when FNC1 was first", () => {
    const s = interpretScan("0109501101530003", { aim: "]C1", aimTransmitted: false, groupSeparator: GS });
    expect(s.aim?.symbology).toBe("gs1-128");
    expect(s.gs1).toEqual({ ok: true, elements: [{ ai: "01", title: "GTIN", value: "09501101530003" }] });
  });

  it("maps the scanner's replacement separator back to GS (wedge mode) [SRC 28]", () => {
    const s = interpretScan("]d20109501101530003|10LOT7|21SN", {
      aimTransmitted: true,
      groupSeparator: "|",
    });
    expect(s.value).toBe(`0109501101530003${GS}10LOT7${GS}21SN`);
    expect(s.gs1?.ok && s.gs1.elements.map((e) => e.value)).toEqual(["09501101530003", "LOT7", "SN"]);
  });

  it("does not treat plain data as GS1", () => {
    const s = interpretScan("]C0TOTE-0042", { aimTransmitted: true, groupSeparator: GS });
    expect(s).toMatchObject({ value: "TOTE-0042", gs1: null });
    expect(s.aim?.symbology).toBe("code128");
  });

  it("keeps the AIM in the value when the profile says none is sent", () => {
    const s = interpretScan("]C0TOTE", { aimTransmitted: false, groupSeparator: GS });
    expect(s).toMatchObject({ value: "]C0TOTE", aim: null });
  });
});
