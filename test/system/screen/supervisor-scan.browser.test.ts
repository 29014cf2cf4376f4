/**
 * A supervisor's badge from the seat's own scanner, in chromium at 1024×768 and 1920×1080
 * (docs/station.md#supervisor-at-the-seat): with the supervisor's prompt open for "Switch to Put", the
 * badge scanned on the seat's (simulated) scanner, not typed into the prompt, authorises the switch; a
 * badge that is no supervisor's is said in the prompt; with no prompt open the badge is refused in words
 * and acts on nothing. Every state visited: axe-core reports nothing serious.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { atEverySize, expectAccessible, expectLayout, PANEL_EXTREMES } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;
let badge = "";

const mode = async () => ((await ok(rig.t.call("GET", "/station/state"))) as { mode: string }).mode;

beforeAll(async () => {
  rig = await startScreenRig("supervisor-scan");
  await rig.t.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
  badge = rig.t.agent.services.auth.newSupervisorBadge("sam");
  page = await rig.open();
  await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.getByRole("heading", { level: 1 }).getByText("No work", { exact: true }).waitFor();
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: a supervisor's badge on the seat's scanner", {
  timeout: deadline(120_000),
}, () => {
  it("authorises the open prompt's tap; a badge that is no supervisor's is said in the prompt", async () => {
    await atEverySize(
      page,
      async (size) => {
        const before = await mode();
        const to = before === "pick" ? "Put" : "Pick";
        // the page tells the agent which tap its prompt holds
        const told = page.waitForResponse(
          (r) => (r.request().postData() ?? "").includes('"supervisor_prompt"') && r.ok(),
        );
        await page.getByRole("button", { name: `Switch to ${to} Supervisor` }).click();
        const dialog = page.getByRole("dialog", { name: `Supervisor: Switch to ${to}` });
        await dialog.waitFor();
        await told;
        await expectLayout(page, "the supervisor's prompt, waiting for a badge");
        await expectAccessible(page, `the supervisor's prompt at ${size.width}×${size.height}`);

        expect((await rig.scan("SUP-no-supervisors-badge-00000000")).outcome).toMatchObject({
          as: "supervisor_badge",
        });
        await expect
          .poll(() => dialog.getByRole("alert").innerText())
          .toBe("Not a supervisor's badge or PIN, or not theirs to authorise");
        await expectAccessible(page, `a badge refused in the prompt at ${size.width}×${size.height}`);
        await rig.shot(page, `scanned-refused-${size.width}`);
        expect(await mode()).toBe(before);

        expect((await rig.scan(badge)).outcome).toMatchObject({ as: "supervisor_badge" });
        await dialog.waitFor({ state: "hidden" });
        await expect.poll(mode).toBe(to.toLowerCase());
        await expectAccessible(page, `after the badge at ${size.width}×${size.height}`);
      },
      PANEL_EXTREMES,
    );
    const events = rig.t.agent.services.securityLog.list({ limit: 100 });
    expect(events.filter((e) => e.kind === "supervisor_authorised")).toMatchObject([
      { username: "sam", detail: { operator: "alice", action: "mode", result: "done" } },
      { username: "sam", detail: { operator: "alice", action: "mode", result: "done" } },
    ]);
  });

  it("with no prompt open the badge acts on nothing and is refused in words", async () => {
    await atEverySize(
      page,
      async (size) => {
        const before = await mode();
        expect((await rig.scan(badge)).outcome).toMatchObject({
          result: "refused",
          reason: "no_supervisor_prompt",
        });
        await page.getByText("A supervisor's badge only authorises a supervisor's tap").first().waitFor();
        await page.getByText("Tap the button marked Supervisor first, then scan the badge").first().waitFor();
        expect(await page.content()).not.toContain(badge.slice(4));
        await expectAccessible(page, `a badge with no prompt at ${size.width}×${size.height}`);
        await rig.shot(page, `no-prompt-${size.width}`);
        expect(await mode()).toBe(before);
      },
      PANEL_EXTREMES,
    );
  });
});
