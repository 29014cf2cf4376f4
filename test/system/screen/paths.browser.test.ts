/**
 * The shift's paths besides the happy line (docs/station.md#paths-of-a-shift), in a real browser at
 * 1024×768 and 1920×1080 with axe-core: help from any state, the unscannable path, the put card.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { CORE, ok, putBody, SR, setStock } from "../../support/station.js";
import { atEverySize, expectAccessible, expectLayout, PANEL_EXTREMES } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

const IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/%3E";

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string) => page.getByRole("button", { name, exact: true });

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** The layout rules and axe-core at both sizes, a screenshot at each. */
async function atBothSizes(where: string, shot: string) {
  await atEverySize(
    page,
    async (size) => {
      await expectLayout(page, where);
      await expectAccessible(page, `${where} at ${size.width}×${size.height}`);
      await rig.shot(page, `${shot}-${size.width}`);
    },
    PANEL_EXTREMES,
  );
}

beforeAll(async () => {
  rig = await startScreenRig("paths");
  rig.browser.context.setDefaultTimeout(deadline(5000));
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: the shift's paths", { timeout: deadline(90_000) }, () => {
  it("help is a header button in any state, even before a login, asked once more", async () => {
    await text(heading(), "Log in: scan your badge");
    const help = page.getByRole("banner").getByRole("button", { name: "Help" });
    await help.click();
    const ask = page.getByRole("dialog", { name: "Call a supervisor to seat front?" });
    await ask.waitFor();
    await atBothSizes("the help question", "help-asked");
    const posted = page.waitForRequest((r) => r.url().endsWith("/screen/actions") && r.method() === "POST");
    await ask.getByRole("button", { name: "Yes, call a supervisor" }).click();
    expect((await posted).postDataJSON()).toMatchObject({ type: "supervisor" });
    await text(page.getByRole("region", { name: "Last" }), /A supervisor was called/);
    await ask.waitFor({ state: "hidden" });
    await atBothSizes("help called", "help-called");
    // logged in too
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(page.locator("#operator"), "Operator: alice");
    await help.click();
    await ask.getByRole("button", { name: "Back" }).click();
    await ask.waitFor({ state: "hidden" });
    expect((await ok(rig.t.call("GET", "/station/seats/front/screen"))).lastEvent.did).toBe("logged_in");
  });

  it("unscannable: the slot's label or a typed code identifies the unit; the write-off says the order ends short", async () => {
    await seedPick(rig.t, {
      sku: "SERIAL",
      order: "ORDER-U",
      qty: 3,
      slot: "S5",
      item: { productAttributes: { product_sku: "SERIAL", scan_required: true }, description: "serialised" },
    });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S5"] }));
    await rig.scan("BC-SERIAL");
    await text(heading(), /1 of 3 scanned/);
    await button("Unscannable").click();
    const ask = page.getByRole("dialog", { name: "The barcode cannot be read" });
    await text(ask, /Scan the label of slot S5: it counts the unit/);
    expect(await ask.getByRole("textbox", { name: "Code from the label" }).count()).toBe(1);
    await atBothSizes("the unscannable path of a scan-required unit", "unscannable-asked");
    // the slot's label counts the unit; the dialog drawn for 1 of 3 is gone
    await rig.scan("S5");
    await text(heading(), /2 of 3 scanned/);
    await ask.waitFor({ state: "hidden" });
    // the code typed counts the last one: the pick is done
    await button("Unscannable").click();
    await ask.getByRole("textbox", { name: "Code from the label" }).fill("BC-SERIAL");
    await ask.getByRole("button", { name: "Enter code" }).click();
    await text(page.getByRole("region", { name: "Last" }), /BC-SERIAL\s+Picked/);
    expect((await ok(rig.t.call("GET", `${SR}/ORDER-U?type=PICK`))).state).toBe("complete");

    // an item that is not scanned unit by unit: no scan is needed; writing it off says what it does
    await seedPick(rig.t, { sku: "PLAIN", order: "ORDER-W", qty: 1, slot: "S6" });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S6"] }));
    await rig.scan("BC-PLAIN");
    await text(heading(), /Put 1 × PLAIN into bin/);
    await button("Unscannable").click();
    await text(ask, /No scan is needed: bin \d is lit/);
    await button("Write off").click();
    const sure = page.getByRole("dialog", {
      name: "The unit is written off; ORDER-W will end 1 short. Write it off?",
    });
    await sure.waitFor();
    await atBothSizes("the write-off of an unscannable unit", "unscannable-write-off");
    await sure.getByRole("button", { name: "Yes, write off" }).click();
    await text(page.getByRole("region", { name: "Last" }), /Exception recorded/);
    expect((await ok(rig.t.call("GET", `${SR}/ORDER-W?type=PICK`))).state).toBe("abandoned");
  });

  it("a put card: the tote's item with its image and a suggested slot, where the item already is; another slot may be scanned", async () => {
    const { itemBody } = await import("../../support/fixtures.js");
    await ok(
      rig.t.call(
        "POST",
        "/api-gateway/mdm-service/wms-masterdata/item",
        itemBody("JEANS", { description: "Jeans, black, 32/32", imageUrl: IMAGE }),
      ),
    );
    await setStock(rig.t, "M1-B2", "M1", "JEANS", 4);
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["M1-A1", "M1-A2", "M1-B2"] }));
    await ok(rig.t.call("PUT", "/station/mode", { mode: "put" }));
    await ok(rig.t.call("POST", SR, putBody("TOTE-9", [["JEANS", 3]], "TOTE-9")));
    await ok(
      rig.t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "TOTE-9",
        ppsId: "1",
        ppsBinId: "3",
      }),
    );
    // staging is checked just after the answer (docs/architecture.md#put)
    await text(heading(), /^Scan the tote/);
    const o = await rig.scan("BC-JEANS");
    expect(o.outcome).toMatchObject({ result: "done", did: "put_item" });
    await text(heading(), "Scan the slot for 1 × JEANS");
    const card = page.getByRole("group", { name: "Now" });
    await text(card, /Suggested: slot M1-B2/);
    await text(card, /JEANS/);
    await text(card, /Jeans, black, 32\/32/);
    expect(await card.getByRole("img", { name: "Image of JEANS" }).count()).toBe(1);
    expect(await card.getByRole("img", { name: "Rack face, slot M1-B2 highlighted" }).count()).toBe(1);
    await atBothSizes("a put card with a suggested slot", "put-suggested");

    // the operator chooses another slot: the card follows the scan
    await rig.scan("M1-A1");
    await text(card, /Put into slot M1-A1$/m);
    await atBothSizes("a put card at the chosen slot", "put-chosen");
    await button("Confirm").click();
    await text(page.getByRole("region", { name: "Last" }), /Put away/);
  });
});
