import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { buildAgent } from "../../support/build.js";
import { assertInOrder, type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { endpoint, FAST_WEBHOOKS } from "./support.js";

const N = 1500;
/** The agent child of the sync tests: config as JSON, N notifications committed right after the start. */
const CHILD = join(import.meta.dirname, "..", "sync", "support", "agent-child.mjs");
let build: { dist: string; remove(): void };

beforeAll(async () => {
  build = await buildAgent();
}, 120_000);
afterAll(() => build?.remove());

interface Child {
  process: ChildProcess;
  exited: Promise<void>;
}

async function startChild(config: Record<string, unknown>, append: number): Promise<Child> {
  const child = spawn(process.execPath, [CHILD, build.dist], {
    env: { ...process.env, CHILD_CONFIG: JSON.stringify(config), CHILD_APPEND: String(append) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("the agent process did not start")), 20_000);
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("READY ")) {
        clearTimeout(timer);
        ok();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the agent process exited with ${code} before READY`));
    });
  });
  return { process: child, exited };
}

describe("webhooks: the agent killed with SIGKILL mid-delivery, then restarted", () => {
  let receiver: Receiver;
  let dataDir: string;
  const children: Child[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.process.exitCode === null && c.process.signalCode === null) {
        process.kill(c.process.pid as number, "SIGKILL");
        await c.exited;
      }
    }
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("every notification arrives once after dedupe by webhook-id, in order, none lost", async () => {
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
    const first = await startChild(config, N);
    children.push(first);
    await inFlight;
    process.kill(first.process.pid as number, "SIGKILL");
    await first.exited;
    expect(receiver.accepted.length).toBeLessThan(N);
    const beforeRestart = receiver.requests.length;

    children.push(await startChild(config, 0));
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
  }, 90_000);
});
