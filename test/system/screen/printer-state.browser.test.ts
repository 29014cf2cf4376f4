/**
 * The label printer's own state on the operator's page (docs/station.md#shipping-labels-pickpack): a
 * Zebra (a fake one on loopback, printing.printer zpl) put out of paper shows its notice on the seat's
 * page within the status poll, in every language at 1024×768 with no text cut and no serious axe-core
 * finding; paper loaded, the notice goes.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render } from "../../../src/station/screen/messages/messages.js";
import { LANGUAGES } from "../../../src/station/screen/state/types.js";
import { deadline } from "../../support/deadline.js";
import { type FakeZebra, startFakeZebra } from "../../support/fake-zebra.js";
import { ok } from "../../support/station.js";
import { expectAccessible } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";
import { describeMisfits, misfits } from "./support/text-fit.js";

let rig: ScreenRig;
let page: Page;
let zebra: FakeZebra;

beforeAll(async () => {
  zebra = await startFakeZebra();
  rig = await startScreenRig("printer-state", {
    printing: {
      mode: "station",
      printer: "zpl",
      zpl: { host: zebra.host, port: zebra.port, statusIntervalMs: 500 },
    },
  });
  page = await rig.open("front");
  await page.setViewportSize({ width: 1024, height: 768 });
  await ok(rig.t.call("POST", "/station/seats/front/screen/actions", { type: "login", user: "Małgorzata" }));
}, deadline(60_000));
afterAll(async () => {
  await rig?.close();
  await zebra?.close();
});

const notice = () => page.locator('.notice[data-kind="printer_state"]');

describe("the label printer's state on the seat's page", { timeout: deadline(120_000) }, () => {
  it("out of paper: the notice in every language, fitting; paper loaded: gone", async () => {
    zebra.set({ paperOut: true });
    const found: string[] = [];
    for (const lang of LANGUAGES) {
      await page.goto(`${rig.base}/screen/front?lang=${lang}`);
      await page.locator("body[data-connection=live]").waitFor();
      await expect
        .poll(async () => (await notice().count()) > 0 && (await notice().innerText()), {
          timeout: deadline(5000),
        })
        .toContain(render(lang, "notice.printer_state_paper_out"));
      found.push(...describeMisfits(lang, "the printer out of paper", await misfits(page)));
      await expectAccessible(page, `${lang} · the printer out of paper`);
    }
    expect(found).toEqual([]);
    zebra.set({ paperOut: false });
    await expect.poll(() => notice().count(), { timeout: deadline(5000) }).toBe(0);
  });
});
