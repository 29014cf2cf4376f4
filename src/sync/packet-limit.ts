/**
 * MQTT packet sizes as they arrive, before any parser buffers them (MQTT 3.1.1 §2.2: a fixed header of
 * one byte, then the remaining length as a variable byte integer of 1 to 4 bytes, up to 256 MB). The
 * embedded broker's parser waits for a whole packet before the CONNECT's credentials are checked, so a
 * client without credentials could make it hold 256 MB: this scanner reads only the fixed headers as
 * the bytes pass and says when a packet announces more than the limit, so the socket can be closed
 * before the rest is read. Pure: bytes in, a verdict out; it keeps no data, only where the next header
 * starts.
 */

export interface PacketLimits {
  /** The first packet (CONNECT): a client id, a user name, a password, a will. */
  connect: number;
  /** Every packet after it. */
  other: number;
}

export type ScanVerdict = { ok: true } | { ok: false; announced: number; limit: number; first: boolean };

export function createPacketScanner(limits: PacketLimits) {
  /** Bytes of the current packet's body still to skip. */
  let skip = 0;
  /** The fixed header being read: its bytes so far (type byte and length bytes). */
  let header: number[] = [];
  let packets = 0;

  /** Feeds the next bytes of the stream; `ok: false` once a packet announces more than its limit. */
  return function push(chunk: Uint8Array): ScanVerdict {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
        continue;
      }
      header.push(chunk[i] as number);
      i++;
      if (header.length < 2) continue;
      const last = header[header.length - 1] as number;
      // the length continues while the top bit is set, in at most 4 bytes (§2.2.3)
      if (last & 0x80 && header.length < 5) continue;
      let length = 0;
      for (let k = header.length - 1; k >= 1; k--) length = length * 128 + ((header[k] as number) & 0x7f);
      const first = packets === 0;
      const limit = first ? limits.connect : limits.other;
      if (last & 0x80 || length > limit) return { ok: false, announced: length, limit, first };
      packets++;
      header = [];
      skip = length;
    }
    return { ok: true };
  };
}
