/**
 * The capture step on the operator screen in a real browser (docs/capture.md#at-the-seat): after the
 * scan of an item that needs its serial number and expiry date, the instruction and the card say what
 * to scan, a damaged label's code is typed, an expired date is refused with its reason in words, and the
 * confirm picks the unit. At 1024×768 and 1920×1080 every state keeps the layout rules and axe-core finds
 * nothing serious.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok, SR } from "../../support/station.js";
import { checkedAtPanelSizes } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const card = () => page.getByRole("group", { name: "Now" });
const typed = () => page.getByRole("textbox", { name: "Label damaged: type the code" });
const button = (name: string) => page.getByRole("button", { name, exact: true });

async function says(l: ReturnType<typeof heading>, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** The layout rules and axe-core at both panel sizes, back to 1280×800 after. */
const checked = (where: string) => checkedAtPanelSizes(page, rig, where);

beforeAll(async () => {
  rig = await startScreenRig("capture");
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: capture", { timeout: deadline(90_000) }, () => {
  it("after the item's scan the instruction and the card ask for the serial number", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await says(heading(), "No work");
    const attrs = { product_sku: "SERIAL", serial_required: true, expiry_required: true };
    await seedPick(rig.t, {
      sku: "SERIAL",
      order: "CAP-1",
      qty: 2,
      item: { productAttributes: attrs, description: "Hand scanner, serialised" },
    });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    await says(heading(), "Scan an item from slot S1");
    await rig.scan("BC-SERIAL");
    await says(heading(), "Scan the serial number of SERIAL");
    await says(card(), /Scan the serial number of SERIAL/);
    await expect.poll(() => typed().isVisible()).toBe(true);
    // the unit may not go into the bin yet: no confirm, no key-in
    expect(await button("Confirm").count()).toBe(0);
    expect(await button("Key in quantity").count()).toBe(0);
    await checked("capture serial asked");
  });

  it("a typed serial is taken; the card shows it and asks for the expiry date", async () => {
    await typed().fill("SN-1");
    await button("Enter").click();
    await says(heading(), "Scan the expiry date of SERIAL");
    await says(card(), /Serial number: SN-1/);
    await checked("capture expiry asked");
  });

  it("an expired date is refused with its reason in words, and nothing changes", async () => {
    await typed().fill("261120");
    await button("Enter").click();
    const alert = page.locator("#alert");
    await says(alert, /The expiry date has passed/);
    await says(alert, /Take a unit that has not expired, or report a problem/);
    await checked("capture expired refused");
    // the alert holds the instruction area for the error signal's time: the seat's state says it
    const state = await ok(rig.t.call("GET", "/station/seats/front/screen"));
    expect(state.capture).toMatchObject({ asked: "expiry", values: [{ value: "SN-1" }] });
  });

  it("with both values the unit goes into the bin: confirm picks it, and the next unit is asked for", async () => {
    await typed().fill("270500");
    await button("Enter").click();
    await says(heading(), "Put 1 × SERIAL into bin 1 and press its button");
    await says(card(), /Expiry date: 2027-05-31/);
    await expect.poll(() => typed().count()).toBe(0);
    await checked("capture complete");
    await button("Confirm").click();
    await says(heading(), "Scan the serial number of SERIAL");
    const view = await ok(rig.t.call("GET", `${SR}/CAP-1`));
    expect(view.actuals.containers.at(-1).products[0].productAttributes).toMatchObject({
      serial_number: "SN-1",
      expiry_date: "2027-05-31",
    });
  });
});
