/**
 * A pick+pack box closed as full prints its own label (docs/station.md#bin-full-box-full) through the
 * station's label path (`printing.mode: station`, the file printer): the box's OLPN `<OLPN>-<n>` and the
 * units in it. A label that does not print holds the closed box's bin, the screen says so with the
 * printer notice, and a reprint that prints lets the bin go.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

const ACTIONS = "/station/seats/front/screen/actions";
const pack = (box: string) => ({
  shipping_address: "Jane Roe\n1 Main St",
  packing_box_id: box,
  order_number: "O-9",
});

async function boxClosed(t: TestAgent, order: string, box: string) {
  const tap = async (action: Record<string, unknown>) => {
    t.clock.now += 1000;
    return ok(t.call("POST", ACTIONS, action));
  };
  await ok(t.call("POST", SR, pickBody(order, [pickLine(`${order}-1`, "PK", 3, pack(box))])));
  await tap({ type: "scan", barcode: "BC-PK" });
  await tap({ type: "keyin", quantity: 2 });
  await tap({ type: "scan", barcode: "BC-PK" });
  return tap({ type: "exception", code: "BOX_FULL" });
}

const screen = async (t: TestAgent) =>
  (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const tileOf = async (t: TestAgent, bin: string) => (await screen(t)).bins.find((b) => b.id === bin);

describe("a closed box's label", () => {
  let t: TestAgent;
  const labels = tempDir("pps-edge-labels-");

  beforeAll(async () => {
    t = await startTestAgent({
      ppsId: "7",
      station: { bins: ["1", "2", "3"] },
      printing: { mode: "station", printer: "file", dir: labels },
    });
    await seedItem(t, "PK");
    await setStock(t, "S4", "M3", "PK", 10);
    await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
  });
  afterAll(async () => t.close());

  it("prints with the box's OLPN and the units in it; once printed the bin is taken away", async () => {
    const out = await boxClosed(t, "PACK-1", "BOX-9");
    expect(out).toMatchObject({ did: "bin_closed_full", params: { bin: "1", order: "PACK-1", next: "2" } });
    // the first print loads the label code (pdf-lib, bwip-js): on a busy machine that alone takes seconds
    await until("the box's label", () => existsSync(join(labels, "BOX-9-1-PACK-1.pdf")), deadline(15_000), {
      seen: () => readdirSync(labels).join(", "),
    });
    const label = t.agent.services.picks.boxLabelData("PACK-1", "BOX-9-1", "2026-11-21T10:00:00.000Z");
    expect(label).toMatchObject({ olpn: "BOX-9-1", station: "7/1", orderNumber: "O-9" });
    expect(label?.lines).toEqual([{ product: "PK", description: "item PK", quantity: 2 }]);
    await until("the bin let go", async () => (await tileOf(t, "1"))?.printState === "done", deadline(5000));
    await ok(t.call("POST", "/station/bins/1/empty"));
  });
});

describe("a closed box's label that does not print", () => {
  let t: TestAgent;
  // a file where the label folder should be: the file printer cannot write there
  const blocked = join(tempDir("pps-edge-labels-"), "labels");

  beforeAll(async () => {
    writeFileSync(blocked, "not a folder");
    t = await startTestAgent({
      ppsId: "7",
      station: { bins: ["1", "2", "3"] },
      printing: { mode: "station", printer: "file", dir: blocked },
    });
    await seedItem(t, "PK");
    await setStock(t, "S4", "M3", "PK", 10);
    await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
  });
  afterAll(async () => t.close());

  it("holds the bin with the printer notice; a reprint that prints lets it go", async () => {
    await boxClosed(t, "PACK-2", "BOX-8");
    await until("the notice", async () => (await screen(t)).notices.length > 0, deadline(15_000));
    const s = await screen(t);
    expect(s.notices).toEqual([
      {
        kind: "printer_failed",
        text: { key: "notice.printer_failed", params: { bin: "1" } },
        bins: ["1"],
        actions: ["reprint", "skip", "supervisor"],
      },
    ]);
    expect(s.bins.find((b) => b.id === "1")).toMatchObject({ state: "complete", printState: "waiting" });
    const held = await t.call("POST", "/station/bins/1/empty");
    expect(held.status).toBe(409);
    rmSync(blocked);
    t.clock.now += 1000;
    const again = await ok(t.call("POST", ACTIONS, { type: "reprint", bin: "1" }));
    expect(again).toMatchObject({ result: "done", did: "reprinted" });
    expect(readdirSync(blocked)).toEqual(["BOX-8-1-PACK-2.pdf"]);
    expect((await screen(t)).notices).toEqual([]);
    expect((await tileOf(t, "1"))?.printState).toBe("done");
    await ok(t.call("POST", "/station/bins/1/empty"));
  });
});
