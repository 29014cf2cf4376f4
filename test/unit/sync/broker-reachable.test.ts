/**
 * The address a return to an earlier node checks (src/sync/broker-reachable.ts): host and port of the
 * configured URL, the scheme's port when none is given, an IPv6 host without its brackets.
 */
import { describe, expect, it } from "vitest";
import { addressOf, brokerReachable } from "../../../src/sync/broker-reachable.js";

describe("the address checked before returning to a node", () => {
  it("takes the URL's port, or the scheme's", () => {
    expect(addressOf("mqtt://node1.example:1884")).toEqual({ host: "node1.example", port: 1884 });
    expect(addressOf("mqtt://node1.example")).toEqual({ host: "node1.example", port: 1883 });
    expect(addressOf("mqtts://node1.example")).toEqual({ host: "node1.example", port: 8883 });
  });

  it("gives an IPv6 host without its brackets", () => {
    expect(addressOf("mqtt://[::1]:1900")).toEqual({ host: "::1", port: 1900 });
  });

  it("takes an address it cannot check as one that does not answer, without throwing", async () => {
    // the configuration refuses such an address (config.test.ts); a check must not throw on one anyway
    expect(() => addressOf("mqtt://node1.example:99999")).toThrow();
    await expect(brokerReachable("mqtt://node1.example:99999", 100)).resolves.toBe(false);
  });
});
