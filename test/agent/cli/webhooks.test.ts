/**
 * `pps-edge webhooks …` over a station database: the same door as the admin API, so the same refusals
 * with the same codes, each naming the field at fault and changing nothing.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseReport } from "../../../src/app/cli/diag.command.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { type DatabaseHandle, DB_FILE, openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo } from "../../../src/db/outbox.repo.js";
import { createWebhooksRepo } from "../../../src/db/webhooks.repo.js";
import { tempDir } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";

let dir: string;
let handle: DatabaseHandle;
const env = () => ({ PPS_EDGE_DATA_DIR: dir, PPS_EDGE_WEBHOOKS_ALLOW_LOOPBACK: "true" });
const SECRET = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;

beforeEach(() => {
  dir = tempDir();
  handle = openDatabase(join(dir, DB_FILE));
  const outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "1" });
  handle.sqlite.transaction(() => {
    for (let n = 1; n <= 5; n++) outbox.append("order_information", { n }, 1000 + n);
  })();
});
afterEach(() => {
  handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("pps-edge webhooks", () => {
  it("adds an endpoint with a generated secret shown once, lists it without the secret, and removes it", async () => {
    const added = await runCli(
      ["webhooks", "add", "central", "https://wms.example.com/hook", "--types", "bin_complete"],
      env(),
    );
    expect(added.err).toBe("");
    expect(added.code).toBe(0);
    expect(added.out).toMatch(
      /^central\tenabled\thttps:\/\/wms\.example\.com\/hook\tbin_complete\tdelivered to seq 5\t/,
    );
    const secret = /secret \(shown once; give it to the receiver\): (whsec_\S+)/.exec(added.out)?.[1];
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await runCli(["webhooks", "--json"], env());
    expect(listed.out).not.toContain(secret as string);
    expect(JSON.parse(listed.out)).toMatchObject({ id: "central", deliveredSeq: 5, types: ["bin_complete"] });
    expect((await runCli(["webhooks", "remove", "central"], env())).out).toBe(
      "removed webhook endpoint central",
    );
    expect(createWebhooksRepo(handle.sqlite).list()).toEqual([]);
  });

  it("refuses a metadata address, a bad secret, an unknown type and a taken id, naming the field; changes nothing", async () => {
    await runCli(["webhooks", "add", "a", "https://wms.example.com/hook", "--secret", SECRET], env());
    const cases: Array<[string[], RegExp]> = [
      [["webhooks", "add", "m", "http://169.254.169.254/latest"], /webhook_url_refused: url: .*metadata/],
      [
        ["webhooks", "add", "s", "https://x.example.com/", "--secret", "plain"],
        /validation_failed: .*secret/,
      ],
      [
        ["webhooks", "add", "t", "https://x.example.com/", "--types", "nope"],
        /validation_failed: .*types\.0/,
      ],
      [["webhooks", "add", "a", "https://x.example.com/"], /webhook_exists/],
      [["webhooks", "enable", "zz"], /not_found: no webhook endpoint 'zz'/],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(args, env());
      expect([args.join(" "), res.code]).toEqual([args.join(" "), 1]);
      expect(res.err).toMatch(message);
    }
    expect(
      createWebhooksRepo(handle.sqlite)
        .list()
        .map((r) => r.id),
    ).toEqual(["a"]);
    const usage = await runCli(["webhooks", "replay", "a", "x", "3"], env());
    expect([usage.code, usage.err]).toEqual([
      2,
      "pps-edge: FROM 'x' is not a sequence number (a whole number from 1)",
    ]);
  });

  it("disables and enables again, and asks for a replay of a range the endpoint was sent", async () => {
    await runCli(["webhooks", "add", "a", "https://wms.example.com/hook", "--secret", SECRET], env());
    handle.sqlite.prepare("UPDATE webhook_cursors SET delivered_seq = 5").run();
    expect((await runCli(["webhooks", "disable", "a"], env())).out).toMatch(/^a\tDISABLED \(admin\)/);
    expect((await runCli(["webhooks", "enable", "a"], env())).out).toMatch(/^a\tenabled/);
    const res = await runCli(["webhooks", "replay", "a", "2", "4"], env());
    expect(res.out).toBe("replaying seq 2..4 to a (a running agent starts within a second)");
    expect(createWebhooksRepo(handle.sqlite).get("a")).toMatchObject({ replayNext: 2, replayTo: 4 });
    const events = handle.sqlite.prepare("SELECT kind, channel FROM security_events ORDER BY id").all();
    expect(events).toContainEqual({ kind: "webhook_disabled", channel: "cli" });
    expect(events).toContainEqual({ kind: "webhook_changed", channel: "cli" });
  });

  it("diag's database report has a line per endpoint: state, cursor, lag, last status, failures", async () => {
    await runCli(["webhooks", "add", "a", "https://wms.example.com/hook", "--secret", SECRET], env());
    handle.sqlite
      .prepare("UPDATE webhook_cursors SET delivered_seq = 3, attempts = 4, last_status = 503")
      .run();
    const { text } = await databaseReport(parseConfig({ dataDir: dir }));
    expect(text).toMatch(
      /^webhook a enabled: delivered to seq 3, lag \d+ s, last status 503, failing: 4 attempts, 503$/m,
    );
    expect(text).not.toContain(SECRET);
  });
});
