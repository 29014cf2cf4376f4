/**
 * A user name sent with a failed login is stored as sent, but never reaches a terminal as control
 * characters (docs/security.md#security-event-log): `pps-edge security-events` prints it escaped (no ESC
 * sequence, no forged line), its JSON lines carry it escaped too (the same value, parsed back), and the
 * agent's own log lines, JSON or pretty, keep C1 controls and bidi overrides out as well.
 */
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { passwordGrant, startTestAgent, TOKEN_PATH } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";
import { LogLines } from "../../support/log-lines.js";

/** ESC ] 0 ; … BEL sets the window title; the newline and tabs forge a whole event line. */
const HOSTILE =
  "x\u001b]0;owned\u0007\u001b[2J\n2026-11-27T00:00:00.000Z\tuser_added\tcli\tbackdoor\u009b\u202e";
/** What a terminal would act on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ACTIVE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e]/;

describe("control characters from a client", () => {
  it("are escaped by pps-edge security-events, in text and JSON, and stored as sent", async () => {
    const t = await startTestAgent();
    const init = passwordGrant("wrong password 123");
    const body = new URLSearchParams({
      grant_type: "password",
      username: HOSTILE,
      password: "wrong password 123",
    });
    expect((await t.request(TOKEN_PATH, { ...init, body: body.toString() })).status).toBe(401);
    const stored = t.agent.db.sqlite
      .prepare("SELECT username FROM security_events WHERE kind = 'login_failed'")
      .get() as { username: string };
    expect(stored.username).toBe(HOSTILE);

    // beside the running agent, as a maintainer would read it
    const env = { PPS_EDGE_DATA_DIR: t.dir };
    const text = await runCli(["security-events", "--kind", "login_failed"], env);
    expect(text.err).toBe("");
    expect(text.code).toBe(0);
    expect(text.out).not.toMatch(ACTIVE);
    expect(text.out.split("\n")).toHaveLength(1);
    expect(text.out).toContain("x\\x1b]0;owned\\x07\\x1b[2J\\x0a2026-11-27T00:00:00.000Z\\x09user_added");
    expect(text.out).toContain("\\x9b\\u{202e}");

    const json = await runCli(["security-events", "--kind", "login_failed", "--json"], env);
    expect(json.out).not.toMatch(ACTIVE);
    expect((JSON.parse(json.out) as { username: string }).username).toBe(HOSTILE);
    await t.close();
  });

  it("are kept out of the agent's log lines, JSON and pretty", () => {
    for (const format of ["json", "pretty"] as const) {
      const lines = new LogLines();
      const log = createLogger(
        { site: "dc1", ppsId: "1", log: { level: "info", format } },
        { destination: lines, journal: false, tty: false },
      );
      log.warn({ user: HOSTILE }, "login failed");
      const out = lines.text();
      expect(out, format).not.toMatch(ACTIVE);
      if (format === "json") expect((JSON.parse(out) as { user: string }).user).toBe(HOSTILE);
      else expect(out).toContain("\\u001b]0;owned");
    }
  });
});
