/**
 * Device trouble on the operator screen, in plain words (in-process agent, a station file whose
 * scanner and light controller are absent): the seat whose scanner is down gets `scanner_down` and a
 * code input (`manualEntry`), and the `scan` action takes a typed code there; the bins whose lights
 * are out are named.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { ok } from "../../support/station.js";

let t: TestAgent;

beforeAll(async () => {
  const dir = tempDir();
  const file = join(dir, "station.yaml");
  writeFileSync(
    file,
    `station:
  seats: [front, back]
  bins:
    - { id: A1, light: { device: ptl, address: "001001" } }
    - { id: A2, light: { device: ptl, address: "001002" } }
devices:
  - { id: ptl, kind: ptl-controller, profile: sortexx-ascii, transport: { serial: ${join(dir, "no-ptl")} } }
  - { id: scan-front, kind: scanner, profile: serial-scanner-cr, seat: front, transport: { serial: ${join(dir, "no-scanner")} } }
  - { id: scan-back, kind: scanner, profile: sim, seat: back, transport: sim }
`,
  );
  t = await startTestAgent({ station: { file } });
});
afterAll(async () => t.close());

const screen = async (seat: string) =>
  (await ok(t.call("GET", `/station/seats/${seat}/screen`))) as unknown as ScreenState;

describe("devices down on the screen", () => {
  it("the seat whose scanner is down types the code; the bins whose lights are out are named", async () => {
    const front = await screen("front");
    expect(front.manualEntry).toBe(true);
    expect(front.notices).toEqual([
      { kind: "scanner_down", text: { key: "notice.scanner_down" } },
      {
        kind: "lights_down",
        text: { key: "notice.lights_down", params: { bins: "A1, A2" } },
        bins: ["A1", "A2"],
      },
    ]);
    const back = await screen("back");
    expect(back.manualEntry).toBe(false);
    expect(back.notices.map((n) => n.kind)).toEqual(["lights_down"]);
  });

  it("a typed code is a scan at the seat while its scanner is down", async () => {
    const out = await ok(
      t.call("POST", "/station/seats/front/screen/actions", { type: "scan", barcode: "BADGE-alice" }),
    );
    expect(out).toMatchObject({ result: "done", did: "logged_in" });
    expect((await screen("front")).operator).toBe("alice");
  });
});
