/** `request/backup` over the embedded broker: a checked backup into the data folder, idempotent. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDatabaseFile, lastBackup } from "../../../src/db/integrity.js";
import type { TestAgent } from "../../support/agent.js";
import { agentOn, ask, centralOn, notify, ROOT } from "../../support/sync/agent.js";
import type { Subscriber } from "../../support/sync/subscriber.js";

interface Answer {
  transaction: string;
  status: string;
  data: { name: string; size: number; sha256: string };
  error: { code: string } | null;
}

describe("request/backup", () => {
  let t: TestAgent;
  let central: Subscriber;
  const backups = () => readdirSync(join(t.dir, "backups")).sort();

  beforeAll(async () => {
    t = await agentOn("embedded");
    central = await centralOn(t);
  });
  afterAll(async () => {
    await central?.close();
    await t?.close();
  });

  it("answers the backup's name, size and SHA-256; the file is whole and the newest backup", async () => {
    notify(t, "order_information", { order: "before the backup" });
    const text = await ask(central, "backup", { transaction: "b-1" });
    const r = JSON.parse(text) as Answer;
    expect(r).toMatchObject({ transaction: "b-1", status: "ok", error: null });
    expect(r.data.name).toMatch(/^pps-edge-\d{8}T\d{6}\.\d{3}Z\.db$/);
    const path = join(t.dir, "backups", r.data.name);
    const bytes = readFileSync(path);
    expect(r.data.size).toBe(bytes.length);
    expect(r.data.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(checkDatabaseFile(path)).toEqual([]);
    expect(lastBackup(t.dir)).toBe(path);

    // the same transaction: the stored answer, no second backup
    expect(await ask(central, "backup", { transaction: "b-1" })).toBe(text);
    expect(backups()).toEqual([r.data.name]);
  });

  it("refuses anything besides the transaction, and keeps the newest five backups", async () => {
    const bad = JSON.parse(await ask(central, "backup", { transaction: "b-bad", keep: 100 })) as Answer;
    expect(bad).toMatchObject({ status: "error", error: { code: "validation_failed" } });
    const names: string[] = [];
    for (let i = 2; i <= 7; i++) {
      const r = JSON.parse(await ask(central, "backup", { transaction: `b-${i}` })) as Answer;
      expect(r.status).toBe("ok");
      names.push(r.data.name);
    }
    expect(backups()).toEqual(names.slice(-5).sort());
  });

  it("answers the requests after a backup in their order, once it is written", async () => {
    const topic = (n: string) => `${ROOT}/response/${n}`;
    const before = {
      backup: central.on(topic("backup")).length,
      audit: central.on(topic("delete_audit")).length,
    };
    await central.publish(`${ROOT}/request/backup`, JSON.stringify({ transaction: "b-order" }));
    await central.publish(
      `${ROOT}/request/delete_audit`,
      JSON.stringify({ transaction: "a-order", audit_id: "X" }),
    );
    await central.waitFor("both answers", () => central.on(topic("delete_audit")).length > before.audit);
    // the backup's answer was published before the next request's
    expect(central.on(topic("backup")).length).toBe(before.backup + 1);
  });
});
