import { afterEach, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";

/**
 * A user removed or given a new password with the command line (another process, the same database file)
 * loses access at once: the agent's cache of recently checked tokens is dropped when SQLite's data_version
 * says another connection committed. The test clock stands still, so a time-based cache would never expire.
 */
describe("revocation by the command line while the agent runs", () => {
  let t: TestAgent;
  afterEach(async () => t?.close());

  it("a password reset from the CLI refuses the user's cached token on the next request", async () => {
    t = await startTestAgent();
    expect((await t.call("GET", CATALOG)).status).toBe(200);
    const reset = await runCli(
      ["user", "reset-password", "admin"],
      { PPS_EDGE_DATA_DIR: t.dir },
      "a-new-password-456\n",
    );
    expect(reset.code).toBe(0);
    const after = await t.call("GET", CATALOG);
    expect(after.status).toBe(401);
  });

  it("a user removed from the CLI is refused on the next request", async () => {
    t = await startTestAgent();
    expect((await t.call("GET", CATALOG)).status).toBe(200);
    const removed = await runCli(["user", "remove", "admin"], { PPS_EDGE_DATA_DIR: t.dir });
    expect(removed.code).toBe(0);
    expect((await t.call("GET", CATALOG)).status).toBe(401);
  });
});
