/**
 * The API reference in a real browser (Debian's chromium via playwright-core, as the screen's tests):
 * /docs renders every operation of /openapi.json, loads nothing from outside the agent and breaks no
 * rule of its Content-Security-Policy; Authorize obtains a token through the password flow (client
 * credential in HTTP Basic), and "Try it out" then runs an authenticated call. Screenshots of each
 * step are in test-results/screen/docs/.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  ADMIN_PASSWORD,
  CLIENT_ID,
  CLIENT_SECRET,
  startTestAgent,
  type TestAgent,
} from "../../support/agent.js";
import { openBrowser, type ScreenBrowser, shooter } from "../../support/browser.js";
import { deadline } from "../../support/deadline.js";

let t: TestAgent;
let base: string;
let browser: ScreenBrowser;
let page: Page;
const shot = shooter("docs");
/** What the page asked for, and what the browser complained about. */
const requested: Array<{ url: string; authorization: string | undefined }> = [];
const complaints: string[] = [];

beforeAll(async () => {
  t = await startTestAgent({}, { listen: true });
  base = `http://127.0.0.1:${t.agent.address?.port}`;
  browser = await openBrowser();
  page = await browser.page();
  page.on("request", (r) => requested.push({ url: r.url(), authorization: r.headers().authorization }));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") complaints.push(m.text());
  });
  page.on("pageerror", (e) => complaints.push(String(e)));
  await page.goto(`${base}/docs`);
  await page
    .locator(".opblock")
    .first()
    .waitFor({ timeout: deadline(20_000) });
}, deadline(60_000));
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("API reference page (/docs)", { timeout: deadline(60_000) }, () => {
  it("shows every operation of the document: each path with each of its methods", async () => {
    const doc = (await (await t.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented.length).toBeGreaterThan(60);
    const rendered = await page.$$eval(".opblock", (blocks) =>
      blocks.map((b) => {
        const method = b.querySelector(".opblock-summary-method")?.textContent?.trim() ?? "";
        const path = b.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "";
        return `${method} ${path}`;
      }),
    );
    expect(rendered.sort()).toEqual(documented);
    await expect
      .poll(() => page.locator(".opblock-summary-path", { hasText: "/item/search_v2" }).isVisible())
      .toBe(true);
    await shot(page, "operations");
  });

  it("loads nothing from outside the agent, and the browser reports no CSP violation or error", () => {
    expect(requested.length).toBeGreaterThan(4);
    for (const r of requested) expect(r.url.startsWith(`${base}/`), r.url).toBe(true);
    expect(requested.map((r) => new URL(r.url).pathname)).toContain("/openapi.json");
    expect(complaints).toEqual([]);
  });

  it("Authorize offers the password flow at the token endpoint, and obtains a token", async () => {
    await page.locator(".auth-wrapper button.authorize").click();
    const dialog = page.locator(".dialog-ux .modal-ux");
    await dialog.waitFor();
    await expect.poll(() => dialog.innerText()).toMatch(/oauth2 \(OAuth2, password\)/);
    await expect.poll(() => dialog.innerText()).toMatch(/Flow:\s*password/);
    await expect
      .poll(() => dialog.innerText())
      .toContain("/api-gateway/auth-service/platform-auth/oauth/token");
    await expect.poll(() => dialog.innerText()).toMatch(/bearer\s+\(http, Bearer\)/);
    await page.locator("#oauth_username").fill(ADMIN);
    await page.locator("#oauth_password").fill(ADMIN_PASSWORD);
    expect(await page.locator("#password_type").inputValue()).toBe("basic"); // Authorization header
    await page.locator("#client_id_password").fill(CLIENT_ID);
    await page.locator("#client_secret_password").fill(CLIENT_SECRET);
    await shot(page, "authorize-password-flow");
    await page.getByRole("button", { name: "Apply given OAuth2 credentials" }).click();
    await expect.poll(() => dialog.innerText(), { timeout: deadline(10_000) }).toMatch(/Authorized/);
    await shot(page, "authorized");
    const tokenCall = requested.find((r) => r.url.endsWith("/oauth/token"));
    expect(tokenCall?.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
    );
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "detached" });
  });

  it("Try it out runs an authenticated call with that token: the catalog list answers 200", async () => {
    const op = page.locator("#operations-catalog-getApiGatewayMdmServiceWmsMasterdataCatalog");
    await op.locator(".opblock-summary").click();
    await op.locator("button.execute").click();
    const status = op.locator(".live-responses-table tbody .response-col_status").first();
    await expect.poll(() => status.innerText(), { timeout: deadline(10_000) }).toMatch(/^200/);
    await shot(page, "try-it-out-catalog");
    const call = requested.findLast(
      (r) => r.url === `${base}/api-gateway/mdm-service/wms-masterdata/catalog`,
    );
    expect(call?.authorization).toMatch(/^Bearer [A-Za-z0-9_-]{16,}$/);
  });
});
