/**
 * A packing level's barcode (an itemConfig case or inner pack) scanned at the station: it is the
 * barcode of many units, so it is refused (`level_barcode`, docs/station.md#station-engine-scans-lights-and-buttons) instead of being
 * counted as one unit; the unit's own barcode still works.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody, level } from "../../support/fixtures.js";
import { ITEM, NotificationReader, ok, pickBody, pickLine, SR, setStock } from "../../support/station.js";

let t: TestAgent;
let itemId: number;

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  const caseOf12 = level("case", { barcode: [{ barcode: "CASE-12" }], level: [level("each", { qty: 12 })] });
  itemId = (await ok(t.call("POST", ITEM, itemBody("CASED", { itemConfig: { level: [caseOf12] } }))))
    .id as number;
  await setStock(t, "S9", "M9", "CASED", 24);
  await ok(t.call("POST", SR, pickBody("LEVEL-1", [pickLine("LEVEL-1-1", "CASED", 12)])));
  await ok(t.call("POST", "/station/racks", { msu: "M9", locations: ["S9"] }));
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t?.close());

const scan = (barcode: string) => t.call("POST", "/station/scans", { seat: "front", barcode });

it("a case's barcode → 409 scan_refused, reason level_barcode, naming the level; nothing changed", async () => {
  const n = new NotificationReader(t);
  await n.catchUp();
  const res = await scan("CASE-12");
  const body = (await res.json()) as { code: string; message: string; details: Record<string, unknown> };
  expect([res.status, body.code]).toEqual([409, "scan_refused"]);
  expect(body.details).toMatchObject({ reason: "level_barcode", seat: "front" });
  expect(body.message).toContain("level.0");
  expect(await n.next()).toEqual([]);
  expect(t.agent.services.repos.stock.stockAt("S9", itemId)?.quantity).toBe(24);
  const { lights } = await ok(t.call("GET", "/station/sim/lights"));
  expect(lights.filter((l: { mode: string }) => l.mode === "show")).toEqual([]);
});

it("the unit's own barcode still lights the bin", async () => {
  expect(await ok(scan("BC-CASED"))).toMatchObject({ result: "done", did: "bin_lit" });
});
