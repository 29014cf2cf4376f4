/**
 * A label the agent cannot print whole (text its font cannot draw, docs/decisions.md#label-scripts) is
 * not printed: the bin's tile says why in words, with Reprint, Skip label and Call a supervisor, and the
 * bin stays held (docs/station.md#shipping-labels-pickpack).
 */
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
const labels = tempDir("pps-edge-labels-");

beforeAll(async () => {
  t = await startTestAgent({ printing: { mode: "station", printer: "file", dir: labels } });
  await seedItem(t, "PK");
  await setStock(t, "S4", "M3", "PK", 3);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

describe("a label refused in words", () => {
  it("shows the refusal on the bin's tile and holds the bin; nothing is printed", async () => {
    const pack = {
      shipping_address: "张伟\n北京市朝阳区建国路88号",
      packing_box_id: "BOX-8",
      order_number: "O-8",
    };
    await ok(t.call("POST", SR, pickBody("PL8", [pickLine("PL8-1", "PK", 1, pack)])));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "PL8",
        line: "PL8-1",
        location: "S4",
        quantity: 1,
      }),
    );
    let bin: ScreenState["bins"][number] | undefined;
    let screen: ScreenState | undefined;
    await expect
      .poll(
        async () => {
          screen = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
          bin = screen.bins.find((b) => b.printError !== null);
          return bin !== undefined;
        },
        { timeout: deadline(15_000) },
      )
      .toBe(true);
    expect(bin).toMatchObject({
      state: "complete",
      printState: "waiting",
      printError:
        "the shipping address holds Chinese characters (张, 伟, 北, 京, 市, …), which the label cannot print",
    });
    expect(screen?.notices).toEqual([
      {
        kind: "printer_failed",
        text: { key: "notice.printer_refused", params: { bin: bin?.id, reason: bin?.printError } },
        bins: [bin?.id],
        actions: ["reprint", "skip", "supervisor"],
      },
    ]);
    expect(readdirSync(labels)).toEqual([]);
    const empty = await t.call("POST", `/station/bins/${bin?.id}/empty`);
    expect(empty.status).toBe(409);
  });
});
