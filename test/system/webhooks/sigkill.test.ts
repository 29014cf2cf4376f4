import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { buildAgent } from "../../support/build.js";
import { type BuiltAgentChild, killRunning, startBuiltAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";
import { assertInOrder, type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { endpoint, FAST_WEBHOOKS } from "./support.js";

const N = 1500;
let build: { dist: string; remove(): void };

beforeAll(async () => {
  build = await buildAgent();
}, deadline(120_000));
afterAll(() => build?.remove());

describe("webhooks: the agent killed with SIGKILL mid-delivery, then restarted", () => {
  let receiver: Receiver;
  let dataDir: string;
  const children: BuiltAgentChild[] = [];
  afterEach(async () => {
    await killRunning(children);
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "every notification arrives once after dedupe by webhook-id, in order, none lost",
    async () => {
      receiver = await startReceiver();
      dataDir = tempDir();
      let killAt: () => void = () => {};
      const inFlight = new Promise<void>((ok) => {
        killAt = ok;
      });
      // the request for seq 600 never gets an answer: the agent is killed while it waits for it
      receiver.script = (got) => {
        if (got.seq === 600 && receiver.requests.filter((r) => r.seq === 600).length === 1) {
          killAt();
          return { hang: true };
        }
        return { status: 204 };
      };
      const config = {
        dataDir,
        mqtt: { url: "off" },
        http: { port: 0 },
        webhooks: { ...FAST_WEBHOOKS, timeoutMs: 10_000, endpoints: [endpoint("central", receiver.url)] },
      };
      const first = await startBuiltAgent(build.dist, config, N);
      children.push(first);
      await inFlight;
      await first.kill();
      expect(receiver.accepted.length).toBeLessThan(N);
      const beforeRestart = receiver.requests.length;

      children.push(await startBuiltAgent(build.dist, config, 0));
      await receiver.waitFor(N, 30_000);
      expect(receiver.unverified).toEqual([]);
      assertInOrder(receiver.accepted);
      expect(receiver.accepted.map((a) => a.seq)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      // at least once on the wire: the restarted agent starts again at or before the cut-off one…
      const resumedAt = receiver.requests[beforeRestart]?.seq as number;
      expect(resumedAt).toBeLessThanOrEqual(600);
      // …and from there sends in order, under the same ids
      const after = receiver.requests.slice(beforeRestart).map((r) => r.seq);
      expect(after).toEqual(Array.from({ length: N - resumedAt + 1 }, (_, i) => resumedAt + i));
    },
    deadline(90_000),
  );
});
