import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import {
  kinds,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;
const labels = tempDir("pps-edge-labels-");

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7", printing: { mode: "station", printer: "file", dir: labels } });
  n = new NotificationReader(t);
  await seedItem(t, "PK");
  await setStock(t, "S4", "M3", "PK", 3);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

describe("pick+pack with station printing", () => {
  it("prints the shipping label when the bin completes; the printer's job-done releases the bin", async () => {
    const pack = { shipping_address: "Jane Roe\n1 Main St", packing_box_id: "BOX-7", order_number: "O-7" };
    await ok(t.call("POST", SR, pickBody("PL1", [pickLine("PL1-1", "PK", 2, pack)])));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
    await n.catchUp();
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "PL1",
        line: "PL1-1",
        location: "S4",
        quantity: 2,
      }),
    );
    const list = await n.waitFor(4);
    expect(kinds(list)).toEqual([
      ["order_information", "pick_started"],
      ["order_information", "complete"],
      ["bin_complete", undefined],
      ["pack_information", undefined],
    ]);
    const files = readdirSync(labels).filter((f) => f.endsWith(".pdf"));
    expect(files).toEqual(["BOX-7-PL1.pdf"]);
    const pdf = await PDFDocument.load(readFileSync(join(labels, files[0] as string)));
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    // the label lists what went into the box, as the pack-end payload does, not the order's filters
    const label = t.agent.services.picks.labelData("PL1", "2026-11-21T10:00:00.000Z");
    expect(label?.lines).toEqual([{ product: "PK", description: "item PK", quantity: 2 }]);
    await ok(t.call("POST", `/station/bins/${list[2]?.notification_data.ppsBinId}/empty`));
  });
});
