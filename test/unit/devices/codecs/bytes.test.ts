import { describe, expect, it } from "vitest";
import { ByteQueue, fromHex, fromLatin1, latin1, toHex } from "../../../../src/devices/codecs/bytes.js";
import { seededRandom } from "../../../support/devices/streams.js";

describe("hex and latin1 helpers", () => {
  it("round-trips hex in the reference's notation", () => {
    expect(toHex(fromHex("0F 00 60"))).toBe("0f 00 60");
    expect(fromHex("0f0060")).toEqual(Uint8Array.of(0x0f, 0x00, 0x60));
    expect(() => fromHex("0f 0")).toThrow(RangeError);
    expect(() => fromHex("zz")).toThrow(RangeError);
  });

  it("maps bytes to chars one to one and refuses chars above 0xFF", () => {
    expect(latin1(Uint8Array.of(0x41, 0xe9, 0x1d))).toBe("A\u00e9\x1d");
    expect(fromLatin1("A\u00e9")).toEqual(Uint8Array.of(0x41, 0xe9));
    expect(() => fromLatin1("\u20ac")).toThrow(RangeError);
  });
});

describe("ByteQueue", () => {
  it("behaves like a plain array under random pushes and takes (seeded)", () => {
    const rand = seededRandom(11);
    const q = new ByteQueue();
    let model: number[] = [];
    for (let step = 0; step < 2000; step++) {
      if (rand() < 0.55) {
        const chunk = Uint8Array.from({ length: Math.floor(rand() * 90) }, () => Math.floor(rand() * 256));
        q.push(chunk);
        model.push(...chunk);
      } else {
        const n = Math.floor(rand() * 70);
        expect([...q.take(n)]).toEqual(model.slice(0, n));
        model = model.slice(n);
      }
      expect(q.length).toBe(model.length);
      if (model.length > 0) {
        const i = Math.floor(rand() * model.length);
        expect(q.at(i)).toBe(model[i]);
      }
    }
  });

  it("finds a needle across the boundary of two pushes", () => {
    const q = new ByteQueue();
    q.push(Uint8Array.of(1, 2, 0x0d));
    q.push(Uint8Array.of(0x0a, 5));
    expect(q.indexOf(Uint8Array.of(0x0d, 0x0a))).toBe(2);
    expect(q.indexOf(Uint8Array.of(0x0d, 0x0a), 3)).toBe(-1);
    expect(q.slice(1, 4)).toEqual(Uint8Array.of(2, 0x0d, 0x0a));
  });
});
