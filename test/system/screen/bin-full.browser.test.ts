/**
 * Bin full on the operator screen in a real browser (docs/station.md#bin-full-box-full): at a lit pick the
 * "Bin full" button asks once more, then the bin is closed (it blinks to be taken away), the order goes
 * on in the next free bin, lit, and the last event says so in words; with no free bin it is refused with
 * its reason and nothing changes. At 1024×768 and 1920×1080 every state keeps the layout rules and
 * axe-core finds nothing serious.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { checkedAtPanelSizes } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const last = () => page.getByRole("region", { name: "Last" });
const bin = (id: string): Locator => page.getByRole("group", { name: `Bin ${id}` });
const button = (name: string) => page.getByRole("button", { name, exact: true });

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}
async function attr(l: Locator, name: string, want: string) {
  await expect.poll(() => l.getAttribute(name), { timeout: deadline(5000) }).toBe(want);
}

/** The layout rules and axe-core at both panel sizes, back to 1280×800 after. */
const checked = (where: string) => checkedAtPanelSizes(page, rig, where);

/** "Bin full", then yes in the dialog that asks once more. */
async function binFull() {
  await button("Bin full").click();
  const ask = page.getByRole("dialog", { name: "Report Bin full?" });
  await ask.waitFor();
  await ask.getByRole("button", { name: "Yes, report it" }).click();
}

beforeAll(async () => {
  // three bins: with two orders in bins one is free
  rig = await startScreenRig("bin-full", { station: { bins: ["1", "2", "3"] } });
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: bin full", { timeout: deadline(90_000) }, () => {
  it("closes the lit bin: it blinks to be taken away, the order goes on lit in bin 3, said in words", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(heading(), "No work");
    await seedPick(rig.t, { sku: "TSHIRT", order: "ORDER-1", qty: 2, slot: "S1" });
    await seedPick(rig.t, { sku: "CAP", order: "ORDER-2", qty: 1, slot: "S2" });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
    await rig.scan("BC-TSHIRT");
    await text(heading(), "Put 2 × TSHIRT into bin 1 and press its button");
    await checked("bin lit");

    await button("Bin full").click();
    await page.getByRole("dialog", { name: "Report Bin full?" }).waitFor();
    await checked("bin full asked");
    await page.getByRole("button", { name: "Yes, report it" }).click();
    await text(last(), "Bin 1 is closed as full: take it away; ORDER-1 continues in bin 3");
    await text(heading(), "Put 2 × TSHIRT into bin 3 and press its button");
    await attr(bin("1"), "data-blink", "true");
    await attr(bin("3"), "data-light", "green");
    const shown = (await rig.lights()).filter((l) => l.mode === "show");
    expect(shown).toEqual([
      expect.objectContaining({ ppsBinId: "1", color: "green", blink: true }),
      expect.objectContaining({ ppsBinId: "3", color: "green", quantity: 2 }),
    ]);
    await checked("bin closed as full");

    await button("Confirm").click();
    await attr(bin("3"), "data-blink", "true");
    await text(heading(), "Scan an item from slot S2");
  });

  it("with no free bin it is refused with its reason in words, and the lit pick stays", async () => {
    await rig.scan("BC-CAP");
    await text(heading(), "Put 1 × CAP into bin 2 and press its button");
    await binFull();
    await text(last(), /No free bin: empty a bin first/);
    await attr(last(), "data-tone", "refused");
    // the lit pick stays: bin 2 shows its quantity again once the error signal is over
    await expect
      .poll(async () => (await rig.lights()).find((l) => l.ppsBinId === "2"), { timeout: deadline(5000) })
      .toMatchObject({ mode: "show", color: "green", quantity: 1 });
    const bins = (await ok(rig.t.call("GET", "/station/state"))).bins as Array<{ state: string }>;
    expect(bins.map((b) => b.state)).toEqual(["complete", "pick", "complete"]);
    await checked("no free bin");
  });
});
