/**
 * `pps-edge user supervisor NAME --pin | --badge | --remove` and `user supervisors` (docs/cli.md,
 * docs/security.md#supervisor-credentials): the PIN read from standard input and refused when it breaks the
 * rule or is another supervisor's, the badge printed once as SUP-<secret>, the list, and their removal;
 * each recorded in the security event log. The database is a real file in a temporary data folder.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { tempDir } from "../../support/temp-dirs.js";

const env = { PPS_EDGE_DATA_DIR: tempDir("pps-edge-cli-supervisor-"), PPS_EDGE_LOG_LEVEL: "silent" };
const run = (args: string[], stdin = "") => runCli(args, env, stdin);

describe("pps-edge user supervisor", () => {
  it("sets a PIN and a badge, lists them, refuses bad PINs and a PIN another supervisor has, removes them", async () => {
    expect(
      (await run(["user", "add", "--init", "sam", "--role", "admin"], "a long enough password\n")).code,
    ).toBe(0);
    expect((await run(["user", "add", "olga", "--role", "admin"], "another long password\n")).code).toBe(0);

    const pin = await run(["user", "supervisor", "sam", "--pin"], "482915\n");
    expect(pin).toMatchObject({ code: 0, out: "supervisor PIN of sam set" });
    const badge = await run(["user", "supervisor", "sam", "--badge"]);
    expect(badge.code).toBe(0);
    expect(badge.out).toMatch(/^supervisor badge of sam \(print as a barcode\): SUP-[A-Za-z0-9_-]{32}$/);

    // the rule, and one PIN names one supervisor
    const weak = await run(["user", "supervisor", "olga", "--pin"], "123456\n");
    expect([weak.code, weak.err]).toEqual([2, expect.stringMatching(/PIN refused: a PIN is not a run/)]);
    const taken = await run(["user", "supervisor", "olga", "--pin"], "482915\n");
    expect(taken.code).not.toBe(0);
    expect(taken.err).toMatch(/another supervisor has this PIN/);
    expect((await run(["user", "supervisor", "olga", "--pin"], "730261\n")).code).toBe(0);

    const list = await run(["user", "supervisors"]);
    expect(list.out.split("\n")).toEqual([
      "sam\tadmin\tbadge yes\tpin yes",
      "olga\tadmin\tbadge no\tpin yes",
    ]);

    expect((await run(["user", "supervisor", "sam"])).code).toBe(2);
    expect((await run(["user", "supervisor", "sam", "--remove", "--pin"])).code).toBe(2);
    expect((await run(["user", "supervisor", "nobody", "--badge"])).code).not.toBe(0);
    expect(await run(["user", "supervisor", "sam", "--remove"])).toMatchObject({
      code: 0,
      out: "sam is no supervisor now",
    });
    expect((await run(["user", "supervisors"])).out).toBe("olga\tadmin\tbadge no\tpin yes");

    const events = await run(["security-events", "--kind", "supervisor_changed", "--json"]);
    expect(events.code).toBe(0);
    expect(events.out.match(/"supervisor_changed"/g)?.length).toBe(4);
  });
});
