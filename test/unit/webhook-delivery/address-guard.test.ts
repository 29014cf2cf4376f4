import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { AddressRefused, guardedLookup, type Resolve } from "../../../src/webhook-delivery/address-guard.js";

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

/** A resolver that answers every name with the given addresses, as a DNS server an attacker runs would. */
const answering =
  (...addresses: string[]): Resolve =>
  (_name, _options, callback) =>
    callback(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 })),
    );

const STRICT = { loopback: false, linkLocal: false };
const resolveThrough = (resolve: Resolve, allow = STRICT, self?: Set<string>) =>
  new Promise<{ err: Error | null; address: string }>((ok) =>
    guardedLookup(allow, self, resolve)("hook.example.com", { family: 0 }, (err, address) =>
      ok({ err, address: String(address) }),
    ),
  );

/** [an address a name resolves to, what it reaches, the refusal's words] */
const RESOLVED: Array<[string, string, RegExp]> = [
  ["127.0.0.1", "loopback", /loopback/],
  ["::1", "IPv6 loopback", /loopback/],
  ["::ffff:127.0.0.1", "loopback, IPv4-mapped", /loopback/],
  ["::ffff:7f00:1", "loopback, IPv4-mapped hex", /loopback/],
  ["::127.0.0.1", "loopback, IPv4-compatible", /loopback/],
  ["64:ff9b::7f00:1", "loopback, NAT64", /loopback/],
  ["2002:7f00:1::", "loopback, 6to4", /loopback/],
  ["::ffff:169.254.169.254", "metadata, IPv4-mapped", /metadata/],
  ["64:ff9b::a9fe:a9fe", "metadata, NAT64", /metadata/],
  ["2002:a9fe:a9fe::1", "metadata, 6to4", /metadata/],
  ["::ffff:100.100.100.200", "Alibaba metadata, IPv4-mapped", /metadata/],
  ["::ffff:a83f:8110", "Azure wire server, IPv4-mapped hex", /metadata/],
  ["fd00:ec2:0:0:0:0:0:254", "AWS metadata, uncompressed", /metadata/],
  ["::ffff:169.254.1.1", "link-local, IPv4-mapped", /link-local/],
  ["fe80::1%eth0", "link-local with a zone", /link-local/],
  ["::ffff:0.0.0.0", "unspecified, IPv4-mapped", /not an address/],
];

describe("the connect-time address guard, for every spelling a resolver may answer", () => {
  it.each(RESOLVED)("refuses a name resolving to %s (%s)", async (address, _what, words) => {
    const { err } = await resolveThrough(answering(address));
    expect(err).toBeInstanceOf(AddressRefused);
    expect(err?.message).toMatch(words);
  });

  it("refuses a name when any one of its addresses is forbidden", async () => {
    const { err } = await resolveThrough(answering("203.0.113.7", "::ffff:7f00:1"));
    expect(err?.message).toMatch(/^hook\.example\.com: ::ffff:7f00:1 \(127\.0\.0\.1\) is this computer/);
  });

  it("refuses this computer's address on the agent's own port in its mapped spelling", async () => {
    const own = new Set(["192.0.2.10", "fe80::1234"]);
    const lenient = { loopback: true, linkLocal: true };
    for (const address of ["::ffff:192.0.2.10", "::ffff:c000:20a", "fe80:0:0:0:0:0:0:1234"]) {
      const { err } = await resolveThrough(answering(address), lenient, own);
      expect([address, err?.message]).toEqual([address, expect.stringMatching(/agent's own port/)]);
    }
  });

  it("lets ordinary addresses through, in their mapped spellings too", async () => {
    const ok = await resolveThrough(answering("::ffff:203.0.113.7"));
    expect([ok.err, ok.address]).toEqual([null, "::ffff:203.0.113.7"]);
  });
});
