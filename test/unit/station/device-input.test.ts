/** A GS1 scan from a real scanner reaches the engine as a GS1 element string (src/station/device-input.ts). */
import { describe, expect, it } from "vitest";
import { GS, parseGs1 } from "../../../src/domain/gs1.js";
import { scannedText } from "../../../src/station/device-input.js";

const scan = (value: string, gs1?: Record<string, string>) => ({
  type: "scan" as const,
  deviceId: "scanner-front",
  value,
  at: 0,
  ...(gs1 ? { gs1 } : {}),
});

describe("scanned text", () => {
  it("a GS1 scan whose AIM identifier was taken off gets FNC1 in first position, and reads as GS1", () => {
    const text = scannedText(scan("010400638133393121SN-1", { "01": "04006381333931", "21": "SN-1" }));
    expect(text).toBe(`${GS}010400638133393121SN-1`);
    expect(parseGs1(text)).toMatchObject({ ok: true, values: { gtin: "04006381333931", serial: "SN-1" } });
  });

  it("any other scan goes on as it is", () => {
    expect(scannedText(scan("4006381333931"))).toBe("4006381333931");
    expect(scannedText(scan(`${GS}0104006381333931`, { "01": "04006381333931" }))).toBe(
      `${GS}0104006381333931`,
    );
  });
});
