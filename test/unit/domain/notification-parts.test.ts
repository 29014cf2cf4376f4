import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PART_MEMBER, PartAssembler, splitNotification } from "../../../src/domain/notification-parts.js";

/** An envelope as the outbox commits it, `size` bytes or a little more, with multi-byte characters. */
function envelope(seq: number, size: number): Buffer {
  const line = { id: "L-ü€😀", note: 'quotes " and \\ back' };
  const lines: unknown[] = [];
  let text = "";
  while (text.length < size) {
    lines.push({ ...line, n: lines.length });
    text = JSON.stringify({
      notification_type: "order_information",
      version_number: "1.5.0",
      notification_id: `dc1.7.${seq}`,
      notification_data: { lines },
    });
  }
  return Buffer.from(text, "utf8");
}

const parse = (p: Buffer) =>
  JSON.parse(p.toString("utf8")) as { notification_part: Record<string, unknown>; data: string };

/** Re-encodes a part with `change` applied to its header or data. */
function edit(p: Buffer, change: (m: { notification_part: Record<string, unknown>; data: string }) => void) {
  const m = parse(p);
  change(m);
  return Buffer.from(JSON.stringify(m));
}

describe("splitting a notification into parts", () => {
  it("cuts it into parts no larger than the limit, in order, that put together give it byte for byte", () => {
    const whole = envelope(42, 50_000);
    for (const limit of [1024, 4096, 20_000, 40_000]) {
      const parts = splitNotification(whole, "dc1.7.42", limit);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(limit);
      const headers = parts.map((p) => parse(p)[PART_MEMBER]);
      expect(headers.map((h) => h.index)).toEqual(parts.map((_, i) => i));
      expect(new Set(headers.map((h) => h.count))).toEqual(new Set([parts.length]));
      expect(headers[0]).toEqual({
        notification_id: "dc1.7.42",
        index: 0,
        count: parts.length,
        bytes: whole.length,
        sha256: createHash("sha256").update(whole).digest("hex"),
      });
      const joined = Buffer.concat(parts.map((p) => Buffer.from(parse(p).data, "base64")));
      expect(joined.equals(whole)).toBe(true);
      // each part is valid UTF-8 JSON, though a slice may cut a multi-byte character
      for (const p of parts) expect(Buffer.from(p.toString("utf8"), "utf8").equals(p)).toBe(true);
      // as few parts as the limit allows: one fewer would not hold the bytes
      const raw = Buffer.from(parse(parts[0] as Buffer).data, "base64").length;
      expect(Math.ceil(whole.length / raw)).toBe(parts.length);
    }
  });

  it("gives no parts when the limit cannot carry the header", () => {
    expect(splitNotification(envelope(1, 5000), "dc1.7.1", 100)).toEqual([]);
  });

  it("takes the count's extra digits into account (over 10 and 100 parts)", () => {
    const whole = envelope(7, 120_000);
    const parts = splitNotification(whole, "dc1.7.7", 1024);
    expect(parts.length).toBeGreaterThan(100);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(1024);
  });
});

describe("putting the parts back together", () => {
  const whole = envelope(42, 20_000);
  const parts = splitNotification(whole, "dc1.7.42", 4096);
  const next = Buffer.from(JSON.stringify({ notification_id: "dc1.7.43", notification_type: "x" }));

  function feed(a: PartAssembler, messages: Buffer[]) {
    return messages.map((m) => a.offer(m));
  }

  it("completes once every part has come, with the envelope byte for byte; anything else passes as whole", () => {
    const a = new PartAssembler();
    const out = feed(a, parts);
    expect(out.slice(0, -1).every((o) => o.kind === "pending")).toBe(true);
    const last = out.at(-1);
    expect(last?.kind).toBe("complete");
    expect(last?.kind === "complete" && last.envelope.equals(whole)).toBe(true);
    expect(a.offer(next)).toEqual({ kind: "whole" });
    expect(a.offer("not json")).toEqual({ kind: "whole" });
  });

  it("takes parts out of order within their set", () => {
    const a = new PartAssembler();
    const out = feed(a, [...parts].reverse());
    const last = out.at(-1);
    expect(last?.kind === "complete" && last.envelope.equals(whole)).toBe(true);
  });

  it("takes a repeated part and a whole set sent again (a reconnect between parts) as repeats", () => {
    const a = new PartAssembler();
    const older = Buffer.from(JSON.stringify({ notification_id: "dc1.7.41" }));
    const out = feed(a, [older, parts[0] as Buffer, parts[0] as Buffer, parts[1] as Buffer, older, ...parts]);
    expect(out[0]).toEqual({ kind: "whole" });
    expect(out[2]).toMatchObject({ kind: "pending", have: 1 });
    expect(out[4]).toEqual({ kind: "whole" }); // the older one again: the set goes on
    expect(out.filter((o) => o.kind === "complete")).toHaveLength(1);
    expect(out.some((o) => o.kind === "refused")).toBe(false);
    // and the same set once more after it completed: it completes again (central dedupes by seq)
    expect(feed(a, parts).at(-1)?.kind).toBe("complete");
  });

  it("reports a set that lost a part once another notification arrives", () => {
    const a = new PartAssembler();
    feed(a, [parts[0] as Buffer, parts[2] as Buffer]);
    expect(a.pending()).toEqual({ notificationId: "dc1.7.42", have: 2, count: parts.length });
    const out = a.offer(next);
    expect(out).toMatchObject({ kind: "refused", abandoned: "dc1.7.42" });
    expect(out.kind === "refused" && out.error).toMatch(
      /^incomplete: dc1\.7\.42 has 2 of \d+ parts \(missing 1, 3/,
    );
    expect(a.pending()).toBeUndefined();
  });

  it("reports a set that lost a part when the next notification's parts begin (mixed ids)", () => {
    const other = splitNotification(envelope(43, 9000), "dc1.7.43", 4096);
    const a = new PartAssembler();
    feed(a, [parts[0] as Buffer]);
    const out = a.offer(other[0] as Buffer);
    expect(out).toMatchObject({ kind: "refused", abandoned: "dc1.7.42" });
    expect(out.kind === "refused" && out.error).toMatch(
      /^incomplete: dc1\.7\.42 has 1 of .* and dc1\.7\.43 began$/,
    );
    // the next set goes on from its first part
    expect(feed(a, other.slice(1)).at(-1)?.kind).toBe("complete");
  });

  it("refuses a part of the same id that disagrees with the parts held (count, size or digest)", () => {
    const a = new PartAssembler();
    feed(a, [parts[0] as Buffer]);
    const out = a.offer(edit(parts[1] as Buffer, (m) => (m.notification_part.bytes = 5)));
    expect(out.kind === "refused" && out.error).toMatch(/^mixed parts: dc1\.7\.42 part 1 says/);
    expect(feed(a, parts.slice(1)).at(-1)?.kind).toBe("complete");
  });

  it("refuses a repeated part with other data", () => {
    const a = new PartAssembler();
    feed(a, [parts[0] as Buffer]);
    const out = a.offer(edit(parts[0] as Buffer, (m) => (m.data = Buffer.from("other").toString("base64"))));
    expect(out).toEqual({
      kind: "refused",
      error: "duplicated part: dc1.7.42 part 0 came twice with different data",
    });
  });

  it("refuses a set whose bytes do not match its digest", () => {
    const a = new PartAssembler();
    const tampered = edit(parts[1] as Buffer, (m) => {
      const b = Buffer.from(m.data, "base64");
      b[0] = (b[0] as number) ^ 1;
      m.data = b.toString("base64");
    });
    const out = feed(a, [parts[0] as Buffer, tampered, ...parts.slice(2)]).at(-1);
    expect(out).toMatchObject({ kind: "refused", abandoned: "dc1.7.42" });
    expect(out?.kind === "refused" && out.error).toMatch(/^wrong digest: the \d+ parts of dc1\.7\.42 make/);
  });

  it("refuses a part with a missing or invalid header member, naming it", () => {
    const cases: Array<[(m: { notification_part: Record<string, unknown>; data: string }) => void, string]> =
      [
        [(m) => delete m.notification_part.notification_id, "notification_part.notification_id"],
        [(m) => (m.notification_part.count = 1), "notification_part.count"],
        [(m) => (m.notification_part.index = -1), "notification_part.index"],
        [(m) => (m.notification_part.bytes = "12"), "notification_part.bytes"],
        [(m) => (m.notification_part.sha256 = "abc"), "notification_part.sha256"],
        [(m) => (m.data = "not base64!"), "data"],
      ];
    for (const [change, field] of cases) {
      const out = new PartAssembler().offer(edit(parts[0] as Buffer, change));
      expect(out).toEqual({ kind: "refused", error: `bad part: ${field} is missing or invalid` });
    }
    expect(
      new PartAssembler().offer(edit(parts[0] as Buffer, (m) => (m.notification_part.index = 99))),
    ).toEqual({
      kind: "refused",
      error: `bad part: index 99 is not below count ${parts.length} (dc1.7.42)`,
    });
    expect(new PartAssembler(1000).offer(parts[0] as Buffer)).toEqual({
      kind: "refused",
      error: `bad part: dc1.7.42 announces ${whole.length} bytes, more than 1000`,
    });
  });
});
