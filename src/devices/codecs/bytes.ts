/**
 * Small byte helpers shared by the codecs. Pure: no IO, no clock.
 */

/** Lower-case hex with a space between bytes, as the hardware reference writes frames. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
}

/** Parses "0f 00 60", "0f0060" or "0F-00-60"; rejects odd digit counts and non-hex text. */
export function fromHex(text: string): Uint8Array {
  const digits = text.replace(/[\s:-]/g, "");
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(digits)) {
    throw new RangeError(`fromHex: not an even run of hex digits: ${JSON.stringify(text)}`);
  }
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** One byte per char, 0x00-0xFF; scanner data and ASCII frames are byte-oriented, not UTF-8. */
export function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** Inverse of {@link latin1}; refuses characters above 0xFF instead of silently truncating them. */
export function fromLatin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff)
      throw new RangeError(`fromLatin1: character ${JSON.stringify(text[i])} is not a single byte`);
    out[i] = c;
  }
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Growable FIFO of bytes for stream parsers. Chunks from a serial port or socket arrive split at any
 * byte, so parsers append, look ahead, and consume only whole frames or bytes they have judged garbage.
 */
export class ByteQueue {
  private buf = new Uint8Array(64);
  private start = 0;
  private end = 0;

  get length(): number {
    return this.end - this.start;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.end + chunk.length > this.buf.length) {
      const live = this.length;
      const needed = live + chunk.length;
      if (needed <= this.buf.length) {
        this.buf.copyWithin(0, this.start, this.end);
      } else {
        const next = new Uint8Array(needed * 2);
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      }
      this.start = 0;
      this.end = live;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** Byte at offset `i` from the head; callers check `i < length` first. */
  at(i: number): number {
    return this.buf[this.start + i] ?? 0;
  }

  /** Offset of the first occurrence of `needle` at or after `from`, or -1. */
  indexOf(needle: Uint8Array, from = 0): number {
    const n = needle.length;
    if (n === 0) return -1;
    for (let i = Math.max(0, from); i + n <= this.length; i++) {
      let j = 0;
      while (j < n && this.buf[this.start + i + j] === needle[j]) j++;
      if (j === n) return i;
    }
    return -1;
  }

  /** Copy of `[from, to)` relative to the head, safe to keep after later pushes. */
  slice(from: number, to: number): Uint8Array {
    return this.buf.slice(this.start + from, this.start + Math.min(to, this.length));
  }

  /** Removes and returns the first `n` bytes. */
  take(n: number): Uint8Array {
    const out = this.slice(0, n);
    this.start += Math.min(n, this.length);
    if (this.start === this.end) {
      this.start = 0;
      this.end = 0;
    }
    return out;
  }

  clear(): void {
    this.start = 0;
    this.end = 0;
  }
}
