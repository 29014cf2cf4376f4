/**
 * A unit put wrong after a confirm, corrected at the seat in a real browser (docs/station.md#undo): after
 * a confirmed pick "A unit went into the wrong bin" (a supervisor's) asks which bin, then the supervisor's
 * PIN, and the last event says which bin to take the unit out of and which to put it into, their lights
 * blinking; after a confirmed put "Correct the last put" asks which slot the units are really in, then the
 * PIN, and the stock moves. At 1024×768 and 1920×1080 every state keeps the layout rules and axe-core finds
 * nothing serious.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { CORE, ok, putBody, SR, stockOf } from "../../support/station.js";
import { checkedAtPanelSizes } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

const PIN = "482915";
let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const last = () => page.getByRole("region", { name: "Last" });
const button = (name: string) => page.getByRole("button", { name, exact: true });

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** The layout rules and axe-core at both panel sizes, back to 1280×800 after. */
const checked = (where: string) => checkedAtPanelSizes(page, rig, where);

/** The supervisor's prompt for `action`: the PIN typed on its keys, then "Authorise". */
async function authorise(action: string) {
  const prompt = page.getByRole("dialog", { name: `Supervisor: ${action}` });
  await prompt.waitFor();
  for (const d of PIN) await prompt.getByRole("button", { name: d, exact: true }).click();
  await prompt.getByRole("button", { name: "Authorise" }).click();
  await prompt.waitFor({ state: "hidden" });
}

beforeAll(async () => {
  rig = await startScreenRig("correction", { station: { bins: ["1", "2", "3"] } });
  await rig.t.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
  await rig.t.agent.services.auth.setSupervisorPin("sam", PIN);
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: a unit put wrong after a confirm", { timeout: deadline(120_000) }, () => {
  it("a pick's unit in the wrong bin: the bin asked, the supervisor's PIN, the bins said and lit", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(heading(), "No work");
    await seedPick(rig.t, { sku: "TSHIRT", order: "ORDER-1", qty: 1, slot: "S1" });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    await rig.scan("BC-TSHIRT");
    await text(heading(), "Put 1 × TSHIRT into bin 1 and press its button");
    await button("Confirm").click();
    const wrongBin = button("A unit went into the wrong bin Supervisor");
    await wrongBin.waitFor();
    await checked("after a confirmed pick");

    await wrongBin.click();
    const ask = page.getByRole("dialog", {
      name: "Which bin did the unit of ORDER-1 go into? Tap it; its own is bin 1",
    });
    await ask.waitFor();
    expect(await ask.getByRole("button", { name: "Bin 1", exact: true }).count()).toBe(0);
    await checked("wrong bin asked");
    await ask.getByRole("button", { name: "Bin 2", exact: true }).click();
    await authorise("A unit went into the wrong bin");
    await text(last(), "Take the unit of ORDER-1 out of bin 2 and put it into bin 1");
    const shown = (await rig.lights()).filter((l) => l.mode === "show");
    expect(shown).toEqual(
      expect.arrayContaining([expect.objectContaining({ ppsBinId: "2", color: "red", blink: true })]),
    );
    await checked("bin correction said");
  });

  it("the last put into another slot: the slot asked, the supervisor's PIN, the units moved", async () => {
    await ok(rig.t.call("POST", "/station/seats/front/screen/actions", { type: "empty", bin: "1" }));
    await ok(rig.t.call("PUT", "/station/mode", { mode: "put" }));
    await ok(rig.t.call("POST", SR, putBody("PUT-1", [["TSHIRT", 1]], "TOTE-1")));
    await ok(
      rig.t.call("POST", `${CORE}/stage_put_expectation`, {
        serviceRequestId: "PUT-1",
        ppsId: "1",
        ppsBinId: "3",
      }),
    );
    await ok(rig.t.call("POST", "/station/racks", { msu: "M7", locations: ["S70", "S71"] }));
    await expect
      .poll(
        async () => {
          const seat = (await ok(rig.t.call("GET", "/station/seats/front/screen"))) as {
            bins: Array<{ id: string; state: string }>;
          };
          return seat.bins.find((b) => b.id === "3")?.state;
        },
        { timeout: deadline(5000) },
      )
      .toBe("put");
    await rig.scan("BC-TSHIRT");
    await rig.scan("S70");
    await button("Confirm").click();
    const correct = button("Correct the last put Supervisor");
    await correct.waitFor();
    await checked("after a confirmed put");

    await correct.click();
    const ask = page.getByRole("dialog", {
      name: "Where are the 1 units recorded in slot S70 really? Tap their slot",
    });
    await ask.waitFor();
    await checked("put correction asked");
    await ask.getByRole("button", { name: "Slot S71", exact: true }).click();
    await authorise("Correct the last put");
    await text(last(), "Corrected: 1 moved from slot S70 to slot S71");
    expect((await stockOf(rig.t, "S71", 1))?.quantity).toBe(1);
    expect((await stockOf(rig.t, "S70", 1))?.quantity ?? 0).toBe(0);
    await checked("put correction said");
  });
});
