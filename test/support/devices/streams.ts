/** Helpers for feeding recorded bytes to stream parsers in awkward pieces. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { concatBytes, fromHex } from "../../../src/devices/codecs/bytes.js";

/** Small deterministic PRNG (mulberry32) so "random" chunkings are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `bytes` into chunks of 1..maxChunk bytes chosen by `rand`. */
export function randomChunks(bytes: Uint8Array, rand: () => number, maxChunk = 7): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const n = 1 + Math.floor(rand() * maxChunk);
    out.push(bytes.slice(at, at + n));
    at += n;
  }
  return out;
}

export function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (b) => Uint8Array.of(b));
}

/** Every way the test suite splits a stream: whole, byte by byte, and several seeded random splits. */
export function chunkings(
  bytes: Uint8Array,
  seeds: readonly number[] = [1, 2, 3, 42, 1234],
): Array<[string, Uint8Array[]]> {
  return [
    ["whole", [bytes]],
    ["byte-by-byte", byteByByte(bytes)],
    ...seeds.map((s): [string, Uint8Array[]] => [`seed ${s}`, randomChunks(bytes, seededRandom(s))]),
  ];
}

export function feed<E>(push: (chunk: Uint8Array) => E[], chunks: readonly Uint8Array[]): E[] {
  return chunks.flatMap((c) => push(c));
}

export const hex = fromHex;
export const cat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);
export const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Reads `test/fixtures/devices/<name>`: one report or frame per line in hex, `#` starts a comment. */
export function hexFixture(name: string): Uint8Array[] {
  const path = fileURLToPath(new URL(`../../fixtures/devices/${name}`, import.meta.url));
  return readFileSync(path, "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter((l) => l !== "")
    .map((l) => fromHex(l));
}
