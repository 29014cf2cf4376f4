import { describe, expect, it } from "vitest";
import { formatTimestamp, parseSpecTimestamp } from "../../../src/domain/work-order.js";

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) =>
  Date.UTC(y, mo - 1, d, h, mi, s, ms);

describe("parseSpecTimestamp", () => {
  const valid: [string, string, number][] = [
    // with Z
    ["2024-05-01T10:20:30Z", "UTC", utc(2024, 5, 1, 10, 20, 30)],
    ["2024-05-01T10:20:30.123Z", "UTC", utc(2024, 5, 1, 10, 20, 30, 123)],
    ["2024-05-01T10:20:30.5Z", "UTC", utc(2024, 5, 1, 10, 20, 30, 500)],
    ["2024-05-01T10:20:30.123456789Z", "UTC", utc(2024, 5, 1, 10, 20, 30, 123)],
    ["2024-05-01T10:20Z", "UTC", utc(2024, 5, 1, 10, 20)],
    ["2024-05-01 10:20:30z", "UTC", utc(2024, 5, 1, 10, 20, 30)],
    // with an offset: the configured zone plays no part
    ["2024-05-01T10:20:30+05:30", "America/New_York", utc(2024, 5, 1, 4, 50, 30)],
    ["2024-05-01T10:20:30+0530", "UTC", utc(2024, 5, 1, 4, 50, 30)],
    ["2024-05-01T10:20:30+05", "UTC", utc(2024, 5, 1, 5, 20, 30)],
    ["2024-05-01T22:00:00-03:00", "UTC", utc(2024, 5, 2, 1)],
    ["2024-05-01T10:00:00+00:00", "Mars/Olympus", utc(2024, 5, 1, 10)],
    // with none: read in the configured zone
    ["2024-07-01T12:00:00", "Europe/Berlin", utc(2024, 7, 1, 10)],
    ["2024-01-15T12:00:00", "Europe/Berlin", utc(2024, 1, 15, 11)],
    ["2024-01-15T08:00", "America/New_York", utc(2024, 1, 15, 13)],
    ["2024-06-30T23:59:59.999", "Asia/Kolkata", utc(2024, 6, 30, 18, 29, 59, 999)],
    ["2024-02-29T00:00:00", "UTC", utc(2024, 2, 29)],
    ["2000-02-29T00:00:00", "UTC", utc(2000, 2, 29)],
    // a skipped local time moves forward by the gap; a repeated one takes the earlier instant
    ["2024-03-10T02:30:00", "America/New_York", utc(2024, 3, 10, 7, 30)],
    ["2024-11-03T01:30:00", "America/New_York", utc(2024, 11, 3, 5, 30)],
    ["2024-10-27T02:30:00", "Europe/Berlin", utc(2024, 10, 27, 0, 30)],
  ];
  for (const [text, zone, ms] of valid) {
    it(`reads ${text} (${zone})`, () => {
      expect(parseSpecTimestamp(text, zone)).toEqual({ ok: true, ms });
    });
  }

  const invalid: [string, string][] = [
    ["", "UTC"],
    ["not a date", "UTC"],
    ["2024-05-01", "UTC"],
    ["2024-5-1T10:00Z", "UTC"],
    ["2024-13-01T00:00Z", "UTC"],
    ["2024-00-10T00:00Z", "UTC"],
    ["2024-02-30T00:00Z", "UTC"],
    ["2023-02-29T00:00Z", "UTC"],
    ["1900-02-29T00:00Z", "UTC"],
    ["2024-04-31T00:00Z", "UTC"],
    ["2024-01-01T24:00Z", "UTC"],
    ["2024-01-01T10:60Z", "UTC"],
    ["2024-01-01T10:00:60Z", "UTC"],
    ["2024-01-01T10:00+24:00", "UTC"],
    ["2024-01-01T10:00+05:60", "UTC"],
    ["2024-01-01T10:00:00 Z", "UTC"],
    ["2024-01-01T10:00:00", "Mars/Olympus"],
  ];
  for (const [text, zone] of invalid) {
    it(`refuses ${JSON.stringify(text)} (${zone})`, () => {
      const parsed = parseSpecTimestamp(text, zone);
      expect(parsed).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    });
  }
});

describe("formatTimestamp", () => {
  it("writes UTC with milliseconds and Z", () => {
    expect(formatTimestamp(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(formatTimestamp(utc(2024, 5, 1, 4, 50, 30, 7))).toBe("2024-05-01T04:50:30.007Z");
  });

  it("reads back what it writes", () => {
    const ms = utc(2031, 12, 31, 23, 59, 59, 999);
    expect(parseSpecTimestamp(formatTimestamp(ms), "Asia/Tokyo")).toEqual({ ok: true, ms });
  });
});
