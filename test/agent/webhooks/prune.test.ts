/**
 * Nothing is dropped (docs/webhooks.md#nothing-is-dropped): pruning the outbox stops below what any
 * webhook endpoint still needs, enabled or not, and a replay under way.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, DB_FILE, openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo, type OutboxRepo } from "../../../src/db/outbox.repo.js";
import { createWebhooksRepo, type WebhooksRepo } from "../../../src/db/webhooks.repo.js";
import { tempDir } from "../../support/agent.js";

let dir: string;
let handle: DatabaseHandle;
let outbox: OutboxRepo;
let hooks: WebhooksRepo;
const endpoint = (id: string) => ({
  id,
  url: "https://x.example.com/",
  types: null,
  secret: "whsec_x",
  enabled: true,
  source: "admin" as const,
});

beforeEach(() => {
  dir = tempDir();
  handle = openDatabase(join(dir, DB_FILE));
  outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "1" });
  for (let n = 1; n <= 10; n++) outbox.append("order_information", { n }, 1000);
  outbox.setCursor(10);
  outbox.backfill(2000, 100); // all delivered over MQTT at 2000
});
afterEach(() => {
  handle.close();
  rmSync(dir, { recursive: true, force: true });
});
const kept = () => outbox.after(0, 100).map((r) => r.seq);

describe("outbox pruning with webhook endpoints", () => {
  it("prunes everything delivered when no endpoint needs it", () => {
    expect(outbox.prune(3000)).toBe(10);
  });

  it("keeps what the slowest endpoint, even a disabled one, has not had, and a replay under way", () => {
    hooks = createWebhooksRepo(handle.sqlite);
    hooks.insert(endpoint("fast"), 10, 0);
    hooks.insert(endpoint("slow"), 6, 0);
    hooks.disable("slow", "gone", 0);
    outbox.prune(3000);
    expect(kept()).toEqual([7, 8, 9, 10]);
    hooks.requestReplay("fast", 8, 9, 0);
    hooks.insert(endpoint("new"), 10, 0);
    hooks.remove("slow");
    outbox.prune(3000);
    expect(kept()).toEqual([8, 9, 10]);
  });
});
