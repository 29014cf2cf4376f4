/**
 * Item images on the operator screen (docs/security.md#operator-screen-images): an `imageUrl` outside
 * `station.imageHosts` is not shown, so central's data cannot make the kiosk fetch an address of its
 * choosing; an inline `data:` image is; the page's Content-Security-Policy lets the browser load images
 * from the page itself, `data:` and the configured hosts only (no `img-src *`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, ok, pickBody, pickLine, SR, setStock } from "../../support/station.js";

const HOST = "https://images.example.com";
const INLINE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
const IMAGES: Record<string, string> = {
  GOOD: `${HOST}/good.png`,
  INTERNAL: "http://169.254.169.254/latest/meta-data/",
  LOOKALIKE: "https://images.example.com.evil.test/a.png",
  INLINE,
};

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent({ station: { imageHosts: [HOST] } });
  for (const [sku, imageUrl] of Object.entries(IMAGES)) {
    await ok(t.call("POST", ITEM, itemBody(sku, { imageUrl })));
    await setStock(t, `S-${sku}`, "M1", sku, 5);
  }
  await ok(
    t.call(
      "POST",
      SR,
      pickBody(
        "O1",
        Object.keys(IMAGES).map((sku, i) => pickLine(`O1-${i}`, sku, 1)),
      ),
    ),
  );
  await ok(
    t.call("POST", "/station/racks", { msu: "M1", locations: Object.keys(IMAGES).map((s) => `S-${s}`) }),
  );
  await ok(t.call("POST", "/station/seats/front/screen/actions", { type: "login", user: "alice" }));
});
afterAll(async () => t.close());

describe("item images on the operator screen", () => {
  it("shows only images from station.imageHosts and inline ones", async () => {
    const state = (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
    const json = JSON.stringify(state);
    expect(json).toContain(IMAGES.GOOD);
    expect(json).toContain(INLINE.slice(0, 20));
    expect(json).not.toContain("169.254.169.254");
    expect(json).not.toContain("evil.test");
  });

  it("sends a CSP whose img-src names only the page, data: and the configured hosts", async () => {
    const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
    const opened = await t.request(`/screen/front?key=${encodeURIComponent(keys.front ?? "")}`);
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await t.request("/screen/front", { headers: { cookie } });
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`img-src 'self' data: ${HOST};`);
    expect(csp).not.toContain("img-src *");
  });
});
