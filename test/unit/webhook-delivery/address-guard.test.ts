import { describe, expect, it } from "vitest";
import { AddressRefused, guardedLookup } from "../../../src/webhook-delivery/address-guard.js";

const lookup = (host: string, allow: { loopback: boolean; linkLocal: boolean }, self?: Set<string>) =>
  new Promise<{ err: Error | null; address: string }>((ok) =>
    guardedLookup(allow, self)(host, { family: 4 }, (err, address) => ok({ err, address: String(address) })),
  );

describe("the connect-time address guard", () => {
  it("refuses a name that resolves to loopback unless loopback is allowed", async () => {
    const refused = await lookup("localhost", { loopback: false, linkLocal: false });
    expect(refused.err).toBeInstanceOf(AddressRefused);
    expect(refused.err?.message).toMatch(/^localhost: 127\.0\.0\.1 is this computer \(loopback\)/);
    const allowed = await lookup("localhost", { loopback: true, linkLocal: false });
    expect([allowed.err, allowed.address]).toEqual([null, "127.0.0.1"]);
  });

  it("refuses the agent's own addresses on its own port even where loopback is allowed", async () => {
    const self = await lookup("localhost", { loopback: true, linkLocal: false }, new Set(["127.0.0.1"]));
    expect(self.err?.message).toMatch(/agent's own port/);
  });
});
