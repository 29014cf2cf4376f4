/** One label job chain per bin (docs/decisions.md#per-bin-label-queues), driven by promises the test settles. */
import { describe, expect, it } from "vitest";
import { binChains } from "../../../src/labels/bin-chains.js";

function gate() {
  let open = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}
const turn = () => new Promise((r) => setImmediate(r));

describe("bin chains", () => {
  it("runs one bin's jobs in order and another bin's beside them", async () => {
    const chains = binChains();
    const ran: string[] = [];
    const a1 = gate();
    void chains.run("1", async () => {
      ran.push("a1");
      await a1.opened;
    });
    void chains.run("1", async () => {
      ran.push("a2");
    });
    void chains.run("2", async () => {
      ran.push("b1");
    });
    await turn();
    expect(ran).toEqual(["a1", "b1"]);
    a1.open();
    await chains.idle();
    expect(ran).toEqual(["a1", "b1", "a2"]);
  });

  it("a failed job rejects its own promise only; the bin's next job still runs", async () => {
    const chains = binChains();
    const failed = chains.run("1", async () => {
      throw new Error("paper out");
    });
    const next = chains.run("1", async () => "printed");
    await expect(failed).rejects.toThrow("paper out");
    expect(await next).toBe("printed");
  });

  it("idle waits for jobs queued while the earlier ones ran", async () => {
    const chains = binChains();
    const ran: string[] = [];
    const first = gate();
    void chains.run("1", async () => {
      await first.opened;
      void chains.run("2", async () => {
        ran.push("queued meanwhile");
      });
    });
    let idle = false;
    const waiting = chains.idle().then(() => {
      idle = true;
    });
    await turn();
    expect(idle).toBe(false);
    first.open();
    await waiting;
    expect(ran).toEqual(["queued meanwhile"]);
  });
});
