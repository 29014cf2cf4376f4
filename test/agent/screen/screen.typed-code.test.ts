/**
 * A code can always be typed at a seat (docs/station.md#paths-of-a-shift, "Unscannable"): the `scan`
 * action is a scan at the seat whether its real scanner is down, up, or the seat has none, so a label
 * the scanner cannot read is typed instead.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { ok } from "../../support/station.js";

let t: TestAgent;

beforeAll(async () => {
  const dir = tempDir();
  const file = join(dir, "station.yaml");
  writeFileSync(
    file,
    `station:
  seats: [front, side]
  bins:
    - { id: A1, light: { device: ptl, address: "1" } }
devices:
  - { id: ptl, kind: ptl-controller, profile: sim, transport: sim }
  - { id: scan-front, kind: scanner, profile: sim, seat: front, transport: sim }
`,
  );
  t = await startTestAgent({ station: { file } });
});
afterAll(async () => t.close());

describe("a typed code", () => {
  it("is a scan at a seat that has no scanner of its own", async () => {
    const screen = await ok(t.call("GET", "/station/seats/side/screen"));
    expect(screen).toMatchObject({ simulatedScanner: false, manualEntry: false });
    const out = await ok(
      t.call("POST", "/station/seats/side/screen/actions", { type: "scan", barcode: "BADGE-gus" }),
    );
    expect(out).toMatchObject({ result: "done", did: "logged_in" });
    expect((await ok(t.call("GET", "/station/seats/side/screen"))).operator).toBe("gus");
  });

  it("is refused with why when it means nothing here, and changes nothing", async () => {
    const res = await t.call("POST", "/station/seats/side/screen/actions", { type: "scan", barcode: "NOPE" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: { reason: string } }).details.reason).toBe("unknown_barcode");
  });
});
