/**
 * The embedded broker closes a connection whose CONNECT announces more than MAX_CONNECT_BYTES as its
 * header arrives, before credentials are checked and before the body is buffered: a client without
 * credentials cannot make the agent hold 256 MB (docs/mqtt.md#embedded-broker-credentials-and-acl).
 * A real socket against the real broker; a normal client still connects and works after it.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONNECT_BYTES } from "../../../src/sync/embedded-broker.js";
import type { TestAgent } from "../../support/agent.js";
import { agentOn, ask, CENTRAL } from "../../support/sync/agent.js";
import { subscribe } from "../../support/sync/subscriber.js";

let t: TestAgent;
beforeAll(async () => {
  t = await agentOn("embedded");
});
afterAll(async () => t?.close());

/** Sends `header`, then keeps sending 64 KiB blocks until the broker closes; the bytes it took. */
function flood(port: number, header: number[], max = 8 << 20): Promise<{ sent: number; closed: boolean }> {
  return new Promise((ok) => {
    const socket = connect(port, "127.0.0.1");
    let sent = 0;
    let closed = false;
    const block = Buffer.alloc(64 * 1024);
    socket.on("connect", () => {
      socket.write(Buffer.from(header));
      const more = () => {
        while (!closed && sent < max && socket.write(block)) sent += block.length;
        if (!closed && sent < max) socket.once("drain", more);
        else if (sent >= max) socket.end();
      };
      more();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      ok({ sent, closed: sent < max });
    });
  });
}

describe("the embedded broker's packet size limit", () => {
  it("closes a CONNECT announcing 256 MB at its header; the rest is never read", async () => {
    const port = Number(new URL(t.agent.sync.url as string).port);
    const before = process.memoryUsage().rss;
    // CONNECT (0x10), remaining length 268,435,455: the protocol's largest
    const { sent, closed } = await flood(port, [0x10, 0xff, 0xff, 0xff, 0x7f]);
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(8 << 20);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 << 20);
    expect(MAX_CONNECT_BYTES).toBe(64 * 1024);
  });

  it("a client with credentials connects and is answered after it", async () => {
    const admin = await subscribe(t.agent.sync.url as string, ["ppsedge/v1/+/+/response/#"], CENTRAL);
    try {
      const answer = JSON.parse(await ask(admin, "health_check", { transaction: "after-flood" })) as {
        status: string;
      };
      expect(answer.status).toBe("ok");
    } finally {
      await admin.close();
    }
  });
});
