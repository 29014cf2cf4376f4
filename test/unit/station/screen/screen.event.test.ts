/** The screen's last event (pure): what the input was, its result in words, and its tone. */
import { describe, expect, it } from "vitest";
import { lastEventOf } from "../../../../src/station/screen/state/event.js";

const bins = ["1", "2", "3"].map((id) => ({
  id,
  state: "empty" as const,
  printState: "none" as const,
  completePut: null,
}));

describe("screen state: the last event", () => {
  const base = { seq: 7, at: 0, binBefore: "2", binsAfter: bins, knownReasons: new Set(["unknown_barcode"]) };
  it.each([
    [
      "a good scan",
      { kind: "scan", barcode: "BC-A", source: "s" },
      { result: "done", did: "bin_lit" },
      "good",
      "did.bin_lit",
      "BC-A",
    ],
    [
      "a refused scan",
      { kind: "scan", barcode: "X", source: "s" },
      { result: "refused", reason: "unknown_barcode" },
      "refused",
      "refusal.unknown_barcode",
      "X",
    ],
    [
      "an unknown reason",
      { kind: "keyin", quantity: 4 },
      { result: "refused", reason: "weird" },
      "refused",
      "refusal.other",
      "4",
    ],
    [
      "a tap",
      { kind: "tap", text: "put" },
      { result: "done", did: "mode_set" },
      "good",
      "did.mode_set",
      "put",
    ],
  ] as const)("%s", (_, inp, outcome, tone, key, text) => {
    const e = lastEventOf({ ...base, input: inp, outcome });
    expect(e).toMatchObject({ seq: 7, tone, message: { key }, text });
  });

  it("a pick that completes its bin sounds complete; a dropped repeat changes nothing", () => {
    const after = bins.map((b) => (b.id === "2" ? { ...b, state: "complete" as const } : b));
    const e = lastEventOf({
      ...base,
      binsAfter: after,
      input: { kind: "bin", binId: "2", signal: "confirm" },
      outcome: { result: "done", did: "picked" },
    });
    expect(e).toMatchObject({ tone: "complete", input: "button", text: "2" });
    expect(
      lastEventOf({
        ...base,
        input: { kind: "scan", barcode: "A", source: "s" },
        outcome: { result: "debounced" },
      }),
    ).toBeNull();
  });
});
