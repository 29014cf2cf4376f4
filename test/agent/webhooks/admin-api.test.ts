/**
 * The webhook endpoints' admin API (docs/webhooks.md#endpoints): every bad input is refused with its
 * status, stable code and the field at fault, and changes nothing; the secret is never listed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const CONFIGURED = `whsec_${Buffer.alloc(32, 4).toString("base64")}`;
let t: TestAgent;

beforeAll(async () => {
  t = await startTestAgent({
    webhooks: { endpoints: [{ id: "central", url: "https://wms.example.com/hook", secret: CONFIGURED }] },
  });
  // the part that writes the config file's endpoints runs with the network parts: here, by hand
  t.agent.services.webhooks.applyConfig([
    { id: "central", url: "https://wms.example.com/hook", secret: CONFIGURED, enabled: true },
  ]);
  for (let i = 0; i < 4; i++) t.agent.services.unitOfWork.run((tx) => tx.notify("bin_complete", { i }));
});
afterAll(async () => t.close());

type ErrorBody = { code: string; errors: Array<{ path: string }> };
const list = async () =>
  (await (await t.call("GET", "/station/webhooks")).json()) as { endpoints: Array<{ id: string }> };

describe("/station/webhooks", () => {
  it("adds an endpoint that starts at the end of the outbox; a generated secret is answered once and never listed", async () => {
    const res = await t.call("POST", "/station/webhooks", {
      id: "bins",
      url: "https://b.example.com/h",
      types: ["bin_complete"],
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { endpoint: { deliveredSeq: number; source: string }; secret: string };
    expect(body.endpoint).toMatchObject({ deliveredSeq: 4, source: "admin" });
    expect(body.secret).toMatch(/^whsec_/);
    const listed = JSON.stringify(await list());
    expect(listed).not.toContain(body.secret);
    expect(listed).not.toContain(CONFIGURED);
  });

  it("refuses bad input with the field at fault, and changes nothing", async () => {
    const before = await list();
    const cases: Array<[string, string, unknown, number, string, string]> = [
      [
        "POST",
        "/station/webhooks",
        { id: "x y", url: "https://a.example.com/" },
        400,
        "validation_failed",
        "id",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "m", url: "http://169.254.169.254/" },
        400,
        "webhook_url_refused",
        "url",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "l", url: "https://127.0.0.1:9/" },
        400,
        "webhook_url_refused",
        "url",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "p", url: "http://a.example.com/" },
        400,
        "webhook_url_refused",
        "url",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "s", url: "https://a.example.com/", secret: "x" },
        400,
        "validation_failed",
        "secret",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "t", url: "https://a.example.com/", types: ["nope"] },
        400,
        "validation_failed",
        "types.0",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "u", url: "https://a.example.com/", extra: 1 },
        400,
        "validation_failed",
        "",
      ],
      [
        "POST",
        "/station/webhooks",
        { id: "central", url: "https://a.example.com/" },
        409,
        "webhook_exists",
        "id",
      ],
      ["PUT", "/station/webhooks/central", { url: "https://a.example.com/" }, 409, "webhook_in_config", "id"],
      ["PUT", "/station/webhooks/nope", { url: "https://a.example.com/" }, 404, "not_found", "id"],
      ["PUT", "/station/webhooks/bins", {}, 400, "validation_failed", ""],
      ["DELETE", "/station/webhooks/central", undefined, 409, "webhook_in_config", "id"],
      ["POST", "/station/webhooks/central/replay", { from: 3, to: 2 }, 400, "validation_failed", "to"],
      ["POST", "/station/webhooks/central/replay", { from: 99, to: 100 }, 400, "validation_failed", "from"],
      ["POST", "/station/webhooks/nope/enable", undefined, 404, "not_found", "id"],
    ];
    for (const [method, path, body, status, code, field] of cases) {
      const res = await t.call(method, path, body);
      const got = (await res.json()) as ErrorBody;
      const at = `${method} ${path} ${JSON.stringify(body)}`;
      expect([at, res.status, got.code]).toEqual([at, status, code]);
      if (field) expect([at, got.errors[0]?.path]).toEqual([at, field]);
    }
    expect(await list()).toEqual(before);
  });

  it("refuses every spelling of loopback, the agent itself and the metadata services, on add and on change", async () => {
    const before = await list();
    const hosts = [
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "[::ffff:7f00:1]:8080",
      "[::127.0.0.1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::]",
      "2130706433",
      "0177.0.0.1",
      "0x7f.1",
      "127.1",
      "127.0.0.1.",
      "localhost.",
      "[::ffff:169.254.169.254]",
      "[::ffff:100.100.100.200]",
      "[::ffff:168.63.129.16]",
      "[64:ff9b::a9fe:a9fe]",
      "[2002:a9fe:a9fe::]",
      "metadata.google.internal.",
    ];
    for (const host of hosts) {
      const url = `https://${host}/hook`;
      for (const [method, path, body] of [
        ["POST", "/station/webhooks", { id: "spelled", url }],
        ["PUT", "/station/webhooks/bins", { url }],
      ] as const) {
        const res = await t.call(method, path, body);
        const got = (await res.json()) as ErrorBody;
        expect([method, url, res.status, got.code, got.errors[0]?.path]).toEqual([
          method,
          url,
          400,
          "webhook_url_refused",
          "url",
        ]);
      }
    }
    expect(await list()).toEqual(before);
  });

  it("refuses a replay reaching notifications no longer kept, saying which is the oldest kept", async () => {
    t.agent.db.sqlite.prepare("DELETE FROM outbox WHERE seq = 1").run();
    const res = await t.call("POST", "/station/webhooks/central/replay", { from: 1, to: 3 });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "replay_not_kept", details: { firstKept: 2 } });
  });

  it("changes an admin endpoint's secret and types; its cursor stays", async () => {
    const res = await t.call("PUT", "/station/webhooks/bins", { secret: SECRET, types: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "bins", types: null, deliveredSeq: 4 });
    const row = t.agent.services.repos.webhooks.get("bins");
    expect(row?.secret).toBe(SECRET);
  });

  it("disables and enables an endpoint, recording both in the security event log", async () => {
    expect(
      ((await (await t.call("POST", "/station/webhooks/bins/disable")).json()) as { enabled: boolean })
        .enabled,
    ).toBe(false);
    expect(
      ((await (await t.call("POST", "/station/webhooks/bins/enable")).json()) as { enabled: boolean })
        .enabled,
    ).toBe(true);
    const events = (await (await t.call("GET", "/station/security-events")).json()) as {
      events: Array<{ kind: string; detail: Record<string, unknown> | null }>;
    };
    expect(
      events.events.map((e) => [e.kind, e.detail?.endpoint, e.detail?.action ?? e.detail?.reason]),
    ).toEqual(
      expect.arrayContaining([
        ["webhook_disabled", "bins", "admin"],
        ["webhook_changed", "bins", "enabled"],
        ["webhook_changed", "bins", "added"],
      ]),
    );
  });
});
