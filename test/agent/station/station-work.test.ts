import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../../src/domain/errors.js";
import type { Services } from "../../../src/services/services.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, ok, pickBody, pickLine, putBody } from "../../support/station.js";
import { referenceLookup } from "./station-work.reference.js";

/**
 * The station engine's lookups read the station's work from memory, kept up to date by the events each
 * commit announces (src/services/scan-lookup/station-work.ts). Property: after every kind of change, in
 * random sequences (creates one by one and in group commits, racks presented and gone, picks, pick
 * exceptions, cancels, bins emptied, stock set, puts staged and put, audits begun and counted, mode
 * changes, logins and logouts, and changes refused and rolled back), each lookup answers what a fresh
 * read of the database answers.
 */
const SKUS = ["A", "B", "C", "D"];
const SLOTS: Record<string, string[]> = { M1: ["S1", "S2", "S3"], M2: ["S4", "S5"], M3: ["S6", "S7", "S8"] };
const SEATS = ["front", "back"];
const BINS = ["1", "2", "3", "4", "5", "6", "7", "8"];
const MODES = ["pick", "put", "audit"] as const;
type Mode = (typeof MODES)[number];

/** mulberry32: a small seeded generator, so a failing sequence can be run again. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] as T };
}

let t: TestAgent;
let svc: Services;

async function startStation(initialMode: Mode): Promise<void> {
  t = await startTestAgent({ ppsId: "7", station: { initialMode } });
  svc = t.agent.services;
  for (const sku of SKUS) await ok(t.call("POST", ITEM, itemBody(sku)));
  for (const [msu, slots] of Object.entries(SLOTS)) {
    for (const [i, location] of slots.entries())
      svc.operations.setStock({ location, msu, product_sku: SKUS[i % 4] as string, quantity: 6 });
  }
  svc.operations.login("front", "u1");
}

const tick = () => new Promise((r) => setImmediate(r));

/** One random change; a refused one (AppError) rolled back and is part of the property too. */
function changes(
  r: ReturnType<typeof random>,
  ref: ReturnType<typeof referenceLookup>,
  n: number,
  home: Mode,
) {
  const ops = svc.operations;
  const msu = () => r.pick(Object.keys(SLOTS));
  const slot = () => r.pick(Object.values(SLOTS).flat());
  const work = () => r.pick(ref.allPicks());
  const put = () => r.pick(ref.allPuts())?.id ?? "none";
  const line = (i: number) => pickLine(`P${n}-L${i}`, r.pick(SKUS), 1 + r.int(3));
  return [
    () => svc.requests.create(pickBody(`P${n}`, [line(1), ...(r.int(2) ? [line(2)] : [])])),
    () =>
      Promise.all(
        [0, 1, 2].map((i) =>
          svc.requests.createAsync(
            pickBody(`G${n}-${i}`, [pickLine(`G${n}-${i}-L`, r.pick(SKUS), 1 + r.int(2))], {
              simple_priority: r.pick(["critical", "high", "normal", "low"]),
            }),
          ),
        ),
      ),
    () => svc.requests.create(putBody(`U${n}`, [[r.pick(SKUS), 1 + r.int(2)]], `TOTE-${r.int(3)}`)),
    () => {
      const m = msu();
      ops.rackPresented({ msu: m, locations: SLOTS[m] as string[] });
    },
    () => ops.rackGone(msu()),
    () => ops.login(r.pick(SEATS), r.pick(["u1", "u2"])),
    () => ops.logout(r.pick(SEATS)),
    () => ops.setMode(r.int(3) ? home : r.pick(MODES)),
    () => {
      const w = work();
      if (w) ops.pick({ ...w, quantity: 1 + r.int(w.quantity) });
    },
    () => {
      const w = work();
      if (w)
        ops.pickException({
          ...w,
          quantity: 1,
          reason: r.pick(["item_missing", "physically_damaged"] as const),
        });
    },
    () =>
      svc.requests.cancel({
        externalServiceRequestId: work()?.externalServiceRequestId ?? "none",
        type: "PICK",
      }),
    () => ops.binEmptied(r.pick(BINS)),
    () => ops.setStock({ location: slot(), msu: "M1", product_sku: r.pick(SKUS), quantity: r.int(8) }),
    () => ops.stagePut({ serviceRequestId: put(), ppsId: "7", ppsBinId: r.pick(BINS) }),
    () => {
      const p = r.pick(ref.allPuts().filter((x) => x.state === "staged"));
      if (p)
        ops.put({
          externalServiceRequestId: p.id,
          product_sku: r.pick(p.skus),
          location: slot(),
          quantity: 1,
        });
    },
    () => ops.release(put()),
    () =>
      svc.audits.create({
        action: "create",
        audit_param_name: "count",
        audit_param_type: "location",
        audit_param_value: { locations_list: [msu()] },
        kq: r.int(2) === 0,
      }),
    () => {
      // the audit being counted first, so that audits get through their counts
      const started = svc.repos.audits.withStatus("started")[0];
      const others = ["created", "queued", "pending_approval"].flatMap((s) => svc.repos.audits.withStatus(s));
      const a = started && r.int(3) ? started : r.pick(others);
      if (!a) return;
      if (a.status === "created") svc.audits.act(a.auditId, "start");
      else if (a.status === "queued") svc.audits.begin(a.auditId, r.pick(SEATS));
      else if (a.status === "pending_approval")
        svc.audits.act(a.auditId, r.pick(["approve", "reaudit"] as const));
      else {
        const open = svc.repos.audits.lines(a.id).find((l) => l.status === "auditline_started");
        if (open)
          svc.audits.count(
            a.auditId,
            {
              audit_line_id: open.auditLineId,
              good_qty: r.int(7),
              damaged_qty: 0,
              unscannable_qty: 0,
            },
            a.kq ? "keyin" : "scanned",
          );
      }
    },
    () => ops.releaseHeldWork(),
  ];
}

/** Every lookup the engine makes, by the cache and by the reference, for texts of every kind. */
function agree(ref: ReturnType<typeof referenceLookup>, step: string) {
  const lookup = svc.scanLookup;
  const texts = [
    ...SKUS.map((s) => `BC-${s}`),
    ...Object.keys(SLOTS),
    ...Object.values(SLOTS).flat(),
    "TOTE-0",
    "TOTE-1",
    "TOTE-2",
    "NOTHING",
  ];
  expect(lookup.mode(), step).toBe(ref.mode());
  for (const seat of SEATS) expect(lookup.user(seat), step).toBe(ref.user(seat));
  for (const text of texts) {
    const found = ref.meanings(text);
    expect(lookup.meanings(text), `${step}: ${text}`).toEqual(found);
    expect(lookup.picks(found), `${step}: picks for ${text}`).toEqual(ref.picks(found));
    expect(lookup.puts(found), `${step}: puts for ${text}`).toEqual(ref.puts(found));
  }
  expect(lookup.audit(), step).toEqual(ref.audit());
  expect(lookup.bins(), step).toEqual(ref.bins());
  for (const p of ref.allPuts()) expect(lookup.putState(p.id), step).toBe(ref.putState(p.id));
  for (const w of ref.allPicks()) {
    expect(lookup.pickStillThere(w), step).toBe(true);
    expect(lookup.pickStillThere({ ...w, quantity: w.quantity + 1 }), step).toBe(
      ref.pickStillThere({ ...w, quantity: w.quantity + 1 }),
    );
  }
}

/** Steps after which the station had each kind of work, over all sequences: the property's reach. */
const reached = { pickWork: 0, stagedPut: 0, completeTote: 0, countedAudit: 0 };

describe.each(MODES)("station work in memory, from %s mode", (mode) => {
  beforeAll(() => startStation(mode));
  afterAll(() => t.close());

  it("agrees with the database after every change of a random sequence", async () => {
    const ref = referenceLookup(t.agent.db.sqlite);
    const seed = Number(process.env.STATION_WORK_SEED ?? 20261124) + mode.length;
    const r = random(seed);
    const kinds = new Map<number, { done: number; refused: number }>();
    agree(ref, "at start");
    for (let n = 0; n < 250; n++) {
      const all = changes(r, ref, n, mode);
      const k = r.int(all.length);
      const tally = kinds.get(k) ?? { done: 0, refused: 0 };
      kinds.set(k, tally);
      try {
        await (all[k] as () => unknown)();
        tally.done++;
      } catch (e) {
        if (!isAppError(e)) throw e;
        tally.refused++;
      }
      await tick(); // staging is checked on the next turn
      reached.pickWork += ref.allPicks().length ? 1 : 0;
      reached.stagedPut += ref.allPuts().some((p) => p.state === "staged") ? 1 : 0;
      reached.completeTote += ref.bins().some((b) => b.completePut) ? 1 : 0;
      reached.countedAudit += ref.audit() ? 1 : 0;
      agree(ref, `${mode} mode, seed ${seed}, step ${n} (change ${k})`);
    }
    expect(kinds.size).toBe(changes(r, ref, 0, mode).length);
  });
});

describe("the random sequences", () => {
  it("reached every kind of station work the lookups answer about", () => {
    expect(reached.pickWork).toBeGreaterThan(50);
    expect(reached.stagedPut).toBeGreaterThan(50);
    expect(reached.completeTote).toBeGreaterThan(20);
    expect(reached.countedAudit).toBeGreaterThan(20);
  });
});
