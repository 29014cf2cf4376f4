/**
 * The agent run as root says so at start: the package runs it as the system user `pps-edge`, and as
 * root a fault in it (or in a device driver it loads) reaches the whole box.
 */
import { describe, expect, it } from "vitest";
import { rootWarning } from "../../../src/app/run-as-root.js";

describe("the warning of an agent run as root", () => {
  it("is given for uid 0, and names the user to run as", () => {
    expect(rootWarning(0)).toMatch(/^running as root: .*pps-edge/);
  });

  it.each([
    ["the service's user", 998],
    ["a person's user", 1000],
    ["a platform without user ids", undefined],
  ])("is not given for %s", (_what, uid) => {
    expect(rootWarning(uid)).toBeNull();
  });
});
