/**
 * The embedded broker's size check (src/sync/packet-limit.ts): fixed headers read as bytes pass, across
 * chunk boundaries, packet after packet; the first packet (CONNECT) and the others have their own
 * limits; a remaining length over the limit, or longer than the protocol's four bytes, is refused at its
 * header, before the body arrives.
 */
import { describe, expect, it } from "vitest";
import { createPacketScanner } from "../../../src/sync/packet-limit.js";

/** MQTT's variable byte integer (MQTT 3.1.1 §2.2.3). */
function remainingLength(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

const packet = (type: number, length: number) => [
  type,
  ...remainingLength(length),
  ...new Array(length).fill(0),
];
const limits = { connect: 100, other: 1000 };

describe("the MQTT packet size scanner", () => {
  it("passes packets within their limits, cut anywhere across chunks", () => {
    const stream = Uint8Array.from([
      ...packet(0x10, 100),
      ...packet(0x30, 1000),
      ...packet(0xc0, 0),
      ...packet(0x82, 300),
    ]);
    for (const cut of [1, 2, 3, 7, 64, stream.length]) {
      const scan = createPacketScanner(limits);
      for (let i = 0; i < stream.length; i += cut)
        expect(scan(stream.subarray(i, i + cut))).toEqual({ ok: true });
    }
  });

  it("refuses a CONNECT announcing more than its limit at its header", () => {
    const scan = createPacketScanner(limits);
    expect(scan(Uint8Array.from([0x10, ...remainingLength(268_435_455)]))).toEqual({
      ok: false,
      announced: 268_435_455,
      limit: 100,
      first: true,
    });
  });

  it("gives the packets after CONNECT their own limit", () => {
    const scan = createPacketScanner(limits);
    expect(scan(Uint8Array.from(packet(0x10, 50)))).toEqual({ ok: true });
    expect(scan(Uint8Array.from([0x30, ...remainingLength(1001)]))).toEqual({
      ok: false,
      announced: 1001,
      limit: 1000,
      first: false,
    });
  });

  it("refuses a remaining length longer than four bytes", () => {
    const scan = createPacketScanner(limits);
    expect(scan(Uint8Array.from([0x10, 0x80, 0x80, 0x80, 0x80, 0x01])).ok).toBe(false);
  });
});
