/**
 * Pick+pack with the agent printing (printing.mode station): when a label does not print, the bin's
 * tile on the screen says why and offers a reprint; the reprint tap prints it again (the same job as
 * at bin complete) and the printer's job-done releases the bin as print_ready would.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
// a file where the label folder should be: the file printer cannot write there
const blocked = join(tempDir("pps-edge-labels-"), "labels");

beforeAll(async () => {
  writeFileSync(blocked, "not a folder");
  t = await startTestAgent({ printing: { mode: "station", printer: "file", dir: blocked } });
  await seedItem(t, "PK");
  await setStock(t, "S4", "M3", "PK", 3);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

async function tile(until: (b: ScreenState["bins"][number]) => boolean) {
  let found: ScreenState["bins"][number] | undefined;
  // The first print loads the label code (pdf-lib, bwip-js): on a busy machine that alone takes seconds.
  await expect
    .poll(
      async () => {
        const s = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
        found = s.bins.find(until);
        return found !== undefined;
      },
      { timeout: deadline(15_000) },
    )
    .toBe(true);
  return found as ScreenState["bins"][number];
}

describe("reprint from the screen", () => {
  it("a failed label shows why on its bin; the reprint prints it and releases the bin", async () => {
    const pack = { shipping_address: "Jane Roe\n1 Main St", packing_box_id: "BOX-7", order_number: "O-7" };
    await ok(t.call("POST", SR, pickBody("PL1", [pickLine("PL1-1", "PK", 2, pack)])));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "PL1",
        line: "PL1-1",
        location: "S4",
        quantity: 2,
      }),
    );
    const failed = await tile((b) => b.printError !== null);
    expect(failed).toMatchObject({ state: "complete", printState: "waiting", actions: ["reprint"] });
    expect(failed.printError).toMatch(/EEXIST|ENOTDIR|not a directory|exists/i);
    // the notice says it in words, never the printer's error text, and offers what to do
    const s = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
    expect(s.notices).toEqual([
      {
        kind: "printer_failed",
        text: { key: "notice.printer_failed", params: { bin: failed.id } },
        bins: [failed.id],
        actions: ["reprint", "skip", "supervisor"],
      },
    ]);

    // a reprint that fails again says so
    const again = await t.call("POST", "/station/seats/front/screen/actions", {
      type: "reprint",
      bin: failed.id,
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      code: "scan_refused",
      details: { reason: "label_not_printed" },
      message: `the label of bin ${failed.id} did not print again`,
    });
    // the screen says the label did not print and what to do (never "work is still in progress")
    const said = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
    expect(said.lastEvent).toMatchObject({
      result: "refused",
      message: { key: "refusal.label_not_printed" },
      said: { key: "said.reprint", params: { bin: failed.id } },
    });
    expect(said.alert).toMatchObject({ instead: { key: "instead.label_not_printed" } });

    rmSync(blocked);
    const out = await ok(
      t.call("POST", "/station/seats/front/screen/actions", { type: "reprint", bin: failed.id }),
    );
    expect(out).toMatchObject({ result: "done", did: "reprinted" });
    const printed = await tile((b) => b.id === failed.id && b.printState === "done");
    expect(printed).toMatchObject({ printError: null, actions: ["empty"] });
    await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: failed.id }));
  });

  it("skip_label releases the bin without a label, tells central (print_ready) and clears the notice", async () => {
    rmSync(blocked, { recursive: true, force: true });
    writeFileSync(blocked, "not a folder");
    const pack = { shipping_address: "Jane Roe\n1 Main St", packing_box_id: "BOX-8", order_number: "O-8" };
    await ok(t.call("POST", SR, pickBody("PL2", [pickLine("PL2-1", "PK", 1, pack)])));
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "PL2",
        line: "PL2-1",
        location: "S4",
        quantity: 1,
      }),
    );
    const failed = await tile((b) => b.printError !== null);
    const notReady = await t.call("POST", "/station/seats/front/screen/actions", {
      type: "skip_label",
      bin: "9",
    });
    expect(notReady.status).toBe(409);
    const out = await ok(
      t.call("POST", "/station/seats/front/screen/actions", { type: "skip_label", bin: failed.id }),
    );
    expect(out).toMatchObject({ result: "done", did: "label_skipped" });
    const released = await tile((b) => b.id === failed.id && b.printState === "done");
    expect(released).toMatchObject({ printError: null, actions: ["empty"] });
    const s = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
    expect(s.notices).toEqual([]);
    expect(s.lastEvent).toMatchObject({ message: { key: "did.label_skipped" } });
  });
});
