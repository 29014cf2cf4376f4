/**
 * The operator screen in a real browser: a put (tote, item, key-in on the numpad, slot, confirm, an
 * exception, release), an audit (slot, scans, damaged and unscannable, close slot) and the German
 * catalogue chosen by the operator. Found by role and accessible name; screenshots in test-results/.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAudit, view } from "../../support/audits.js";
import { deadline } from "../../support/deadline.js";
import { CORE, ok, putBody, SR, seedItem, setStock } from "../../support/station.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const last = () => page.getByRole("region", { name: /^(Last|Zuletzt)$/ });
const bin = (id: string): Locator => page.getByRole("group", { name: `Bin ${id}` });
const button = (name: string) => page.getByRole("button", { name, exact: true });
const buttons = async (names: string[]) =>
  (await Promise.all(names.map((n) => button(n).count()))).every((c) => c === 1);

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

beforeAll(async () => {
  rig = await startScreenRig("put-audit");
  page = await rig.open("front");
  await seedItem(rig.t, "TSHIRT");
  await setStock(rig.t, "S1", "M1", "TSHIRT", 5);
  await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: put, audit, German", { timeout: deadline(60_000) }, () => {
  it("a put: switch mode, tote, item, key-in on the numpad, slot, confirm, each exception, release", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("bob");
    await button("Log in").click();
    // the station's mode is an admin's (docs/roles.md): switched by the admin, the screen follows
    await ok(rig.t.call("PUT", "/station/mode", { mode: "put" }));
    await text(page.locator("#mode"), "Put");
    await ok(rig.t.call("POST", SR, putBody("TOTE-7", [["TSHIRT", 10]], "TOTE-7")));
    await ok(
      rig.t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "TOTE-7",
        ppsId: "1",
        ppsBinId: "2",
      }),
    );
    await text(heading(), "Scan the tote");
    await text(page.getByRole("list", { name: "Totes" }), /Tote TOTE-7 · Bin 2 · Left 10/);
    await rig.shot(page, "put-staged");

    await rig.scan("TOTE-7");
    await text(heading(), "Scan an item from tote TOTE-7");
    await rig.scan("BC-TSHIRT");
    await text(heading(), "Scan the slot for 1 × TSHIRT");
    await expect.poll(() => bin("2").getAttribute("data-light")).toBe("green");
    // the front seat's put exceptions (spec: front_* states): those the problem report covers are there,
    // with their quantity and a confirmation; the others ask once more
    expect(await buttons(["Problem", "Unscannable", "Warehouse full"])).toBe(true);
    for (const gone of ["Missing", "Damaged", "Extra item", "No space", "Oversized"])
      expect(await button(gone).count()).toBe(0);
    await rig.shot(page, "put-item-scanned");

    await button("Key in quantity").click();
    const pad = page.getByRole("dialog", { name: "Key in quantity" });
    await pad.getByRole("button", { name: "2", exact: true }).click();
    await rig.shot(page, "put-numpad");
    await pad.getByRole("button", { name: "OK" }).click();
    await text(heading(), "Scan the slot for 2 × TSHIRT");
    await rig.scan("S1");
    await text(heading(), "Put 2 × TSHIRT into slot S1, then confirm");
    await rig.shot(page, "put-slot-chosen");
    await button("Confirm").click();
    await text(last(), /Put away/);
    await text(page.getByRole("list", { name: "Totes" }), /Left 8/);

    // each exception of the front seat, one unit each; extra items do not settle what is expected
    for (const name of [
      "Not in the tote",
      "Damaged",
      "Unscannable",
      "Warehouse full",
      "No space in the slot",
      "Extra units",
    ]) {
      await rig.scan("BC-TSHIRT");
      await text(heading(), "Scan the slot for 1 × TSHIRT");
      if (name === "Unscannable" || name === "Warehouse full") {
        await button(name).click();
        await page
          .getByRole("dialog", { name: `Report ${name}?` })
          .getByRole("button", { name: "Yes, report it" })
          .click();
      } else {
        await button("Problem").click();
        await page
          .getByRole("dialog", { name: "What is the problem?" })
          .getByRole("button", { name })
          .click();
        await expect.poll(() => page.locator("#numpad").isVisible()).toBe(true);
        await button("Clear").click();
        await button("1").click();
        await button("OK").click();
        await page
          .getByRole("dialog", { name: /^Report .*: 1\?$/ })
          .getByRole("button", { name: "Yes, report it" })
          .click();
        await page
          .getByRole("dialog", { name: "Where the unit goes" })
          .getByRole("button", { name: "Done" })
          .click();
      }
      await text(last(), /Exception recorded/);
    }
    await rig.shot(page, "put-exceptions");
    await text(page.getByRole("list", { name: "Totes" }), /Left 3/);
    await rig.scan("BC-TSHIRT");
    await button("Key in quantity").click();
    await page
      .getByRole("dialog", { name: "Key in quantity" })
      .getByRole("button", { name: "3", exact: true })
      .click();
    await page.getByRole("dialog", { name: "Key in quantity" }).getByRole("button", { name: "OK" }).click();
    await rig.scan("S1");
    await button("Confirm").click();
    await text(heading(), "Tote in bin 2 is done: release it");
    await rig.shot(page, "put-complete");
    await button("Release tote in bin 2").click();
    await text(heading(), "No work");
    expect((await ok(rig.t.call("GET", `${SR}/TOTE-7?type=PUT`))).state).toBe("released");
  });

  it("an audit: the slot, scans counted, damaged and unscannable taps, close slot", async () => {
    await seedItem(rig.t, "CNT");
    await setStock(rig.t, "A1", "M2", "CNT", 4);
    await ok(rig.t.call("PUT", "/station/mode", { mode: "audit" }));
    await text(page.locator("#mode"), "Audit");
    const id = await createAudit(rig.t, { audit_param_value: { locations_list: ["M2"] } });
    await ok(rig.t.call("POST", `/station/audits/${id}/start`));
    await ok(rig.t.call("POST", `/station/audits/${id}/begin`, { seat: "front" }));
    await text(heading(), "Count slot A1: scan the slot");
    await rig.shot(page, "audit-started");

    await rig.scan("A1");
    await text(heading(), "Count slot A1: scan each item, then close the slot");
    await rig.scan("BC-CNT");
    await rig.scan("BC-CNT");
    await button("Damaged").click();
    await button("Unscannable").click();
    await text(page.getByRole("table", { name: "Task" }), /CNT\s+item CNT\s+2\s+1\s+1/);
    await rig.shot(page, "audit-counting");
    await button("Close slot").click();
    await text(last(), /Slot closed/);
    const line = (await view(rig.t, id)).audit_data[0];
    expect(line).toMatchObject({ actual_qty: 2, extra_qty: 2 });
    await rig.shot(page, "audit-slot-closed");
  });

  it("German: the operator chooses Deutsch; it stays theirs across logout and login", async () => {
    // the header's chooser names the language in use; its dialog lists each language by its own name
    await button("Language: English").click();
    await page.getByRole("dialog", { name: "Language" }).getByRole("button", { name: "Deutsch" }).click();
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("de");
    await text(heading(), /^(Keine Inventur zu zählen|Fach .* zählen)/);
    expect(await button("Abmelden").count()).toBe(1);
    expect(await button("Sprache: Deutsch").count()).toBe(1);
    await rig.shot(page, "german");
    await rig.scan("NOPE-1");
    await text(last(), /Dieser Barcode ist hier unbekannt/);
    // the logout's answer is held back while its state comes over the stream: a tap made on that state
    // before the answer is back waits for it and is taken, not dropped
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route(
      "**/actions",
      async (route) => {
        const response = await route.fetch();
        await held;
        await route.fulfill({ response });
      },
      { times: 1 },
    );
    await button("Abmelden").click();
    await text(heading(), "Log in: scan your badge"); // nobody logged in: the station's language
    rig.later();
    await button("Log in as bob").click();
    release();
    await text(page.getByRole("button", { name: "Abmelden" }), "Abmelden");
    await rig.shot(page, "german-again");
  });
});
