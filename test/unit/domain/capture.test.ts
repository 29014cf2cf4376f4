import { describe, expect, it } from "vitest";
import {
  captureNeeds,
  checkAll,
  checkCaptured,
  DEFAULT_CAPTURE_RULES,
  expiryDate,
  fullYear,
  isoDay,
  nextToCapture,
  reportedAttributes,
  valuesOfScan,
} from "../../../src/domain/capture.js";

const TODAY = "2026-11-28";

describe("capture: what an item needs", () => {
  it("asks for the kinds whose flag is true, in the order serial, lot, expiry", () => {
    const attrs = { product_sku: "X", expiry_required: true, serial_required: true, lot_required: "yes" };
    expect(captureNeeds(DEFAULT_CAPTURE_RULES, attrs)).toEqual(["serial", "expiry"]);
    expect(
      captureNeeds({ ...DEFAULT_CAPTURE_RULES, serial: { when: null, as: "serial_number" } }, attrs),
    ).toEqual(["expiry"]);
    expect(nextToCapture(["serial", "expiry"], { serial: "A" })).toBe("expiry");
    expect(nextToCapture(["serial"], { serial: "A" })).toBeNull();
  });

  it("reports the values under their configured attribute names", () => {
    expect(reportedAttributes(DEFAULT_CAPTURE_RULES, { serial: "S1", expiry: "2027-05-31" })).toEqual({
      serial_number: "S1",
      expiry_date: "2027-05-31",
    });
  });
});

describe("capture: expiry dates (GS1 §3.4.2, §7.12)", () => {
  it("reads YYMMDD with day 00 as the month's last day, leap years included", () => {
    expect(expiryDate("270500", TODAY)).toBe("2027-05-31");
    expect(expiryDate("280200", TODAY)).toBe("2028-02-29");
    expect(expiryDate("270200", TODAY)).toBe("2027-02-28");
    expect(expiryDate("271231", TODAY)).toBe("2027-12-31");
    expect(expiryDate("2027-06-30", TODAY)).toBe("2027-06-30");
  });

  it("finds the century by the sliding window", () => {
    expect(fullYear(76, 2026)).toBe(2076);
    expect(fullYear(77, 2026)).toBe(1977);
    expect(fullYear(99, 2060)).toBe(2099);
    expect(fullYear(9, 2060)).toBe(2109);
  });

  it("refuses what is no date", () => {
    for (const bad of ["271301", "270000", "270230", "270431", "27051", "2705011", "ABCDEF", "2027-02-30"])
      expect(expiryDate(bad, TODAY)).toBeNull();
  });

  it("today's date counts the station's zone", () => {
    const lateUtc = Date.UTC(2026, 10, 28, 23, 30);
    expect(isoDay(lateUtc)).toBe("2026-11-28");
    expect(isoDay(lateUtc, "Europe/Berlin")).toBe("2026-11-29");
  });
});

describe("capture: checking a value", () => {
  it("takes a serial or lot of 1 to 20 characters of set 82", () => {
    expect(checkCaptured("serial", "SN-0001/A", TODAY)).toEqual({ ok: true, value: "SN-0001/A" });
    expect(checkCaptured("lot", "L".repeat(20), TODAY)).toEqual({ ok: true, value: "L".repeat(20) });
  });

  it("refuses a serial or lot that is too long, empty or of other characters, naming the field", () => {
    expect(checkCaptured("serial", "S".repeat(21), TODAY)).toMatchObject({
      ok: false,
      reason: "bad_serial",
      field: "serial",
    });
    expect(checkCaptured("serial", "", TODAY)).toMatchObject({ ok: false, reason: "bad_serial" });
    expect(checkCaptured("lot", "LOT 1", TODAY)).toMatchObject({
      ok: false,
      reason: "bad_lot",
      field: "lot",
    });
    expect(checkCaptured("lot", "LÖT", TODAY)).toMatchObject({ ok: false, reason: "bad_lot" });
  });

  it("refuses an expiry that is no date, or passed; today itself is still good", () => {
    expect(checkCaptured("expiry", "271332", TODAY)).toMatchObject({ ok: false, reason: "bad_expiry" });
    expect(checkCaptured("expiry", "261127", TODAY)).toMatchObject({ ok: false, reason: "expired" });
    expect(checkCaptured("expiry", "261000", TODAY)).toMatchObject({ ok: false, reason: "expired" });
    expect(checkCaptured("expiry", "261128", TODAY)).toEqual({ ok: true, value: "2026-11-28" });
    expect(checkCaptured("expiry", "261100", TODAY)).toEqual({ ok: true, value: "2026-11-30" });
  });

  it("checks every needed value and drops the others", () => {
    expect(checkAll(["serial"], { serial: "A1", lot: "L" }, TODAY)).toEqual({
      ok: true,
      values: { serial: "A1" },
    });
    expect(checkAll(["serial", "expiry"], { serial: "A1", expiry: "200101" }, TODAY)).toMatchObject({
      ok: false,
      reason: "expired",
      field: "expiry",
    });
  });

  it("reads a capture scan: GS1 elements, else the text as the value asked for", () => {
    expect(valuesOfScan("SN-9", "serial")).toEqual({ ok: true, values: { serial: "SN-9" } });
    expect(valuesOfScan("(21)SN-9(17)270500", "lot")).toEqual({
      ok: true,
      values: { serial: "SN-9", expiry: "270500" },
    });
    expect(valuesOfScan("(21)SN 9", "serial")).toMatchObject({ ok: false });
  });
});
