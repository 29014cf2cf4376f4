import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";

/**
 * An oversized body is answered 413 before it is read; the server then reads and discards the rest for
 * a bounded time and size before closing (a lingering close, as nginx's `lingering_close`), so a client
 * still sending its body reads the 413 instead of a broken pipe or a reset (docs/limits.md).
 */

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** POSTs `size` bytes with a declared length: the status read, or the socket error's code. */
function post(port: number, size: number, token: string): Promise<number | string> {
  return new Promise((ok) => {
    const req = request(
      {
        port,
        host: "127.0.0.1",
        method: "POST",
        path: CATALOG,
        agent: false,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": size,
          Authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.once("end", () => ok(res.statusCode ?? 0));
      },
    );
    req.once("error", (e) => ok((e as NodeJS.ErrnoException).code ?? "error"));
    // sent as a LAN would carry it: 64 KiB every 5 ms (about 100 Mbit/s), still arriving when the 413 leaves
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      if (req.destroyed) return;
      const n = Math.min(chunk.length, size - sent);
      sent += n;
      if (sent >= size) req.end(chunk.subarray(0, n));
      else req.write(chunk.subarray(0, n), () => setTimeout(more, 5));
    };
    more();
  });
}

describe("a 413 reaches a client that is still sending its body", () => {
  it.each([2_000_000, 5_000_000])(
    "10 clients sending %i bytes each all read the 413",
    async (size) => {
      t = await startTestAgent({ http: { host: "127.0.0.1", port: 0 } }, { listen: true });
      const port = t.agent.address?.port as number;
      const token = await t.token();
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => post(port, size, token)));
      expect(outcomes).toEqual(Array(10).fill(413));
    },
    deadline(60_000),
  );
});
