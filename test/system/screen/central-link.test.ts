/**
 * The link to central on the seat's screen, driven by its real causes: a real Mosquitto stopped (central
 * not reachable: work continues, the changes are kept) and started again, and the outbox filling towards
 * a small `outbox.maxUndelivered` while it is down (the screen says after how many more changes work is
 * refused, then that it is refused). docs/station.md#operator-screen "Notices".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mib } from "../../../src/domain/outbox-fill.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { FAST, notify, PPS, SITE } from "../../support/sync/agent.js";
import { startMosquitto, type TestBroker } from "../../support/sync/brokers.js";

/** The smallest `outbox.maxUndelivered` the config takes. */
const LIMIT = 100;
const NEAR = 80;
/** The smallest `outbox.maxUndeliveredBytes` the config takes; a few large notifications fill it. */
const LIMIT_BYTES = 1_000_000;
const large = (id: string) => ({
  externalServiceRequestId: id,
  state: "fulfillable",
  attributes: { note: "x".repeat(210_000) },
});
let broker: TestBroker;
let t: TestAgent;
const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const kinds = (s: ScreenState) => s.notices.map((n) => n.kind);

async function screenWhen(what: string, test: (s: ScreenState) => boolean): Promise<ScreenState> {
  let last: ScreenState | undefined;
  await until(what, async () => {
    last = await screen();
    return test(last);
  });
  return last as ScreenState;
}

/** A screen event stream's states as they are pushed (the link is looked at without any input). */
function pushed(): { states: ScreenState[]; off: () => void } {
  const states: ScreenState[] = [];
  const off = t.agent.screen.publisher.subscribe("front", (json) => states.push(JSON.parse(json)));
  return { states, off };
}

beforeAll(async () => {
  broker = await startMosquitto();
  t = await startTestAgent(
    {
      site: SITE,
      ppsId: PPS,
      mqtt: { url: broker.url, protocolVersion: broker.protocolVersion, ...FAST },
      outbox: { maxUndelivered: LIMIT, maxUndeliveredBytes: LIMIT_BYTES },
    },
    { listen: true },
  );
  await until("connected to Mosquitto", () => t.agent.sync.status().connected);
}, deadline(30_000));
afterAll(async () => {
  await t?.close();
  await broker?.close();
});

describe("the link to central on the screen", { timeout: deadline(60_000) }, () => {
  it("connected: no notice; Mosquitto stopped: central not reachable, pushed without any input; back: gone", async () => {
    expect(kinds(await screenWhen("connected", (s) => kinds(s).length === 0))).toEqual([]);
    const stream = pushed();
    await broker.stop();
    await until("pushed: central not reachable", () =>
      stream.states.some((s) => kinds(s).includes("central_unreachable")),
    );
    const lost = await screen();
    expect(lost.notices).toEqual([
      { kind: "central_unreachable", text: { key: "notice.central_unreachable" } },
    ]);
    // work continues: a change is taken and kept for central
    notify(t, "order_information", { externalServiceRequestId: "ORD-1", state: "fulfillable" });
    await broker.start();
    await until("pushed: the notice gone", () => {
      const s = stream.states.at(-1);
      return s !== undefined && !kinds(s).includes("central_unreachable");
    });
    stream.off();
  });

  it("the outbox filling while central is away: after how many more changes work is refused, then refused", async () => {
    await until("delivered", () => t.agent.services.unitOfWork.undelivered() === 0);
    await broker.stop();
    await screenWhen("central not reachable", (s) => kinds(s).includes("central_unreachable"));
    for (let i = 1; i <= NEAR; i++)
      notify(t, "order_information", { externalServiceRequestId: `NEAR-${i}`, state: "fulfillable" });
    const near = await screenWhen("near full", (s) => kinds(s).includes("outbox_near_full"));
    expect(near.notices.find((n) => n.kind === "outbox_near_full")).toEqual({
      kind: "outbox_near_full",
      text: { key: "notice.outbox_near_full", params: { undelivered: NEAR, left: LIMIT - NEAR } },
      actions: ["supervisor"],
    });
    for (let i = NEAR + 1; i <= LIMIT; i++)
      notify(t, "order_information", { externalServiceRequestId: `NEAR-${i}`, state: "fulfillable" });
    const full = await screenWhen("full", (s) => kinds(s).includes("outbox_full"));
    expect(full.notices.find((n) => n.kind === "outbox_full")?.text).toEqual({
      key: "notice.outbox_full",
      params: { undelivered: LIMIT },
    });
    // what the screen says is what happens: the next change is refused
    expect(() =>
      notify(t, "order_information", { externalServiceRequestId: "OVER", state: "fulfillable" }),
    ).toThrow(expect.objectContaining({ code: "outbox_full" }));
    await broker.start();
    await screenWhen("delivered again: no notice", (s) => kinds(s).length === 0);
  });

  it("the outbox's bytes filling while central is away: near full from 80 % of the byte bound, then refused", async () => {
    await until("delivered", () => t.agent.services.unitOfWork.undelivered() === 0);
    await broker.stop();
    await screenWhen("central not reachable", (s) => kinds(s).includes("central_unreachable"));
    for (let i = 1; i <= 3; i++) notify(t, "order_information", large(`BYTES-${i}`));
    expect(kinds(await screen())).toEqual(["central_unreachable"]);
    notify(t, "order_information", large("BYTES-4"));
    const bytes = t.agent.services.repos.outbox.undeliveredBytes();
    expect(bytes).toBeGreaterThanOrEqual(LIMIT_BYTES * 0.8);
    const near = await screenWhen("near full by bytes", (s) => kinds(s).includes("outbox_near_full"));
    expect(near.notices.find((n) => n.kind === "outbox_near_full")?.text).toEqual({
      key: "notice.outbox_near_full_bytes",
      params: { undelivered: mib(bytes), left: mib(LIMIT_BYTES - bytes) },
    });
    notify(t, "order_information", large("BYTES-5"));
    const full = await screenWhen("full by bytes", (s) => kinds(s).includes("outbox_full"));
    expect(full.notices.find((n) => n.kind === "outbox_full")?.text).toEqual({
      key: "notice.outbox_full_bytes",
      params: { undelivered: mib(t.agent.services.repos.outbox.undeliveredBytes()) },
    });
    expect(() => notify(t, "order_information", large("OVER"))).toThrow(
      expect.objectContaining({ code: "outbox_full" }),
    );
    await broker.start();
    await screenWhen("delivered again: no notice", (s) => kinds(s).length === 0);
  });
});
