/**
 * Atop AT500 controller over TCP, played by a local server: light commands arrive as CCB frames, the
 * controller's confirm (15 bytes, as the C# driver expects) and shortage (14 bytes, as the manual says)
 * frames become button events [SRC 30, 31], a tag timeout (0A) makes the adapter send the command
 * again, and a dropped connection is re-established with the lights shown again.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fromHex, toHex } from "../../../src/devices/codecs/bytes.js";
import { deadline } from "../../support/deadline.js";
import { FAST, startHub, testProfiles } from "../../support/devices/harness.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A fake controller: records each CCB frame it receives (cut by the length byte) per connection. */
class FakeController {
  readonly server: Server;
  readonly frames: string[] = [];
  sockets: Socket[] = [];
  private waiters: Array<() => void> = [];

  constructor() {
    this.server = createServer((s) => {
      this.sockets.push(s);
      let buf = Buffer.alloc(0);
      s.on("error", () => {});
      s.on("data", (chunk) => {
        buf = Buffer.concat([buf, chunk]);
        while (buf.length > 0 && buf.length >= (buf[0] ?? 0)) {
          this.frames.push(toHex(buf.subarray(0, buf[0])));
          buf = buf.subarray(buf[0]);
        }
        this.wake();
      });
      this.wake();
    });
  }

  listen(port = 0): Promise<number> {
    return new Promise((ok) =>
      this.server.listen(port, "127.0.0.1", () => ok((this.server.address() as { port: number }).port)),
    );
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((ok) => this.server.close(() => ok()));
  }

  get current(): Socket | undefined {
    return this.sockets.filter((s) => !s.destroyed).at(-1);
  }

  send(hex: string): void {
    this.current?.write(fromHex(hex));
  }

  /** Resolves once `cond()` holds, re-checked on every connection and frame. */
  until(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}: ${this.frames.join(" | ")}`)),
        deadline(timeoutMs),
      );
      const check = () => {
        if (!cond()) return void this.waiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      check();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

async function setUp(opts: { listen?: boolean } = {}) {
  const ctl = new FakeController();
  const port = await ctl.listen();
  if (opts.listen === false) await ctl.close();
  cleanup.push(() => ctl.close().catch(() => {}));
  const profiles = await testProfiles({ "atop-at500-ccb": { ...FAST, retries: 2 } });
  const h = await startHub(
    {
      station: { seats: ["front"], bins: [{ id: "3", light: { device: "atop", address: "005" } }] },
      devices: [
        {
          id: "atop",
          kind: "ptl-controller",
          profile: "atop-at500-ccb",
          transport: { tcp: { host: "127.0.0.1", port } },
        },
      ],
    },
    profiles,
  );
  cleanup.push(() => h.stop());
  return { ctl, h, relisten: () => ctl.listen(port) };
}

const COLOUR_GREEN_5 = "0a 00 60 00 00 00 1f 05 00 01";
const SHOW_12_ON_5 = "0f 00 60 00 00 00 00 05 00 00 00 00 31 32 00";

describe("Atop CCB controller over TCP", () => {
  it("sends colour and display frames for the bin's tag, and reads 15- and 14-byte button frames", async () => {
    const { ctl, h } = await setUp();
    await h.health("atop", (x) => x.connected, "connected");
    await h.hub.light({ deviceId: "atop", address: "5", mode: "show", quantity: 12, color: "green" });
    await ctl.until(() => ctl.frames.length >= 2, "two frames");
    expect(ctl.frames).toEqual([COLOUR_GREEN_5, SHOW_12_ON_5]);

    ctl.send("0f 00 60 00 00 00 06 05 00 00 00 00 31 32 00"); // confirm, 15 bytes
    const confirm = await h.next((e) => e.type === "button", "confirm");
    expect(confirm).toMatchObject({ deviceId: "atop", address: "5", button: "confirm" });
    expect(h.binOf(confirm)).toBe("3");
    ctl.send("ff 0e 00 60 00 00 00 07 05 00 00 00 00 31 31"); // a stray byte, then shortage, 14 bytes
    await expect(h.next((e) => e.type === "button", "shortage")).resolves.toMatchObject({
      button: "shortage",
    });

    await h.hub.light({ deviceId: "atop", address: "5", mode: "off" });
    await ctl.until(() => ctl.frames.length >= 4, "off frames");
    expect(ctl.frames.slice(2)).toEqual(["08 00 60 00 00 00 01 05", "08 00 60 00 00 00 03 05"]);
  });

  it("sends the command again when the controller says the tag did not acknowledge", async () => {
    const { ctl, h } = await setUp();
    await h.health("atop", (x) => x.connected, "connected");
    await h.hub.light({ deviceId: "atop", address: "5", mode: "show", quantity: 12 });
    await ctl.until(() => ctl.frames.length === 1, "display frame");
    ctl.send("08 00 60 00 00 00 0a 05"); // 0A: tag 5 timed out
    await ctl.until(() => ctl.frames.length === 2, "resent display frame");
    expect(ctl.frames).toEqual([SHOW_12_ON_5, SHOW_12_ON_5]);
    expect(h.hub.health()[0]?.lastError).toBe("tag 5 did not acknowledge");
    expect(h.hub.health()[0]?.connected).toBe(true); // the link is fine
  });

  it("reconnects after the controller drops the connection, shows the lights again, and reads the next press", async () => {
    const { ctl, h } = await setUp();
    await h.health("atop", (x) => x.connected, "connected");
    await h.hub.light({ deviceId: "atop", address: "5", mode: "show", quantity: 12 });
    await ctl.until(() => ctl.frames.length === 1, "display frame");
    const first = ctl.current;
    first?.destroy();
    await h.health("atop", (x) => !x.connected, "disconnected");
    await ctl.until(() => ctl.current !== undefined && ctl.current !== first, "a new connection");
    await h.health("atop", (x) => x.connected, "reconnected");
    await ctl.until(() => ctl.frames.length === 2, "light shown again");
    expect(ctl.frames[1]).toBe(SHOW_12_ON_5);
    ctl.send("0e 00 60 00 00 00 06 05 00 00 00 00 31 32");
    await expect(h.next((e) => e.type === "button", "press after reconnect")).resolves.toMatchObject({
      address: "5",
      button: "confirm",
    });
  });

  it("keeps retrying a controller that is not there and connects once it listens", async () => {
    const { h, relisten } = await setUp({ listen: false });
    const down = await h.health("atop", (x) => x.lastError !== null, "connect failure reported");
    expect(down.connected).toBe(false);
    expect(down.lastError).toMatch(/ECONNREFUSED/);
    await relisten();
    await h.health("atop", (x) => x.connected, "connected at last");
  });
});
