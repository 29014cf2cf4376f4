import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { deadline, until } from "../../support/deadline.js";
import { type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { commit, endpoint, webhookAgent } from "./support.js";

/** `pps-edge webhooks` changes the database; the running agent takes the change within a second. */
describe("pps-edge webhooks beside a running agent", () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  it("disable, enable and replay from the command line reach the running delivery", async () => {
    const r: Receiver = await startReceiver();
    open.push(r);
    const t = await webhookAgent([endpoint("central", r.url)]);
    open.push(t);
    const env = { PPS_EDGE_DATA_DIR: t.dir };
    commit(t, 3);
    await r.waitFor(3);

    expect((await runCli(["webhooks", "disable", "central"], env)).code).toBe(0);
    // the agent has seen it (it reads the endpoints' state once a second): a deadline, as it needs the agent to run
    await new Promise((ok) => setTimeout(ok, deadline(1500)));
    commit(t, 2);
    await new Promise((ok) => setTimeout(ok, 300));
    expect(r.requests).toHaveLength(3); // nothing sent while disabled

    expect((await runCli(["webhooks", "enable", "central"], env)).code).toBe(0);
    await r.waitFor(5); // from the cursor on: nothing skipped
    expect(r.accepted.map((a) => a.seq)).toEqual([1, 2, 3, 4, 5]);

    const replay = await runCli(["webhooks", "replay", "central", "2", "3"], env);
    expect(replay.out).toBe("replaying seq 2..3 to central (a running agent starts within a second)");
    await until("7 requests at the receiver", () => r.requests.length >= 7);
    expect(r.requests.slice(5).map((q) => q.seq)).toEqual([2, 3]);
  });
});
