/**
 * CRC-16/MODBUS: init 0xFFFF, reflected polynomial 0xA001 (x^16+x^15+x^2+1), LSB first per byte, sent
 * low byte first [SRC 36] (spec flowchart p.40), hardware.md §3.3. Check value for "123456789" = 0x4B37.
 * Table-driven: the register is polled every pollIntervalMs on every bus, so this runs often.
 */

const TABLE: Uint16Array = (() => {
  const t = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    t[n] = c;
  }
  return t;
})();

export function crc16Modbus(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ (TABLE[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0);
  return crc;
}

/** `body` followed by its CRC, low byte first. */
export function withCrc(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 2);
  out.set(body);
  const crc = crc16Modbus(body);
  out[body.length] = crc & 0xff;
  out[body.length + 1] = crc >>> 8;
  return out;
}

/** True when the last two bytes are the CRC of the rest (equivalently: CRC over the whole frame is 0). */
export function hasValidCrc(frame: Uint8Array, start = 0, end = frame.length): boolean {
  return end - start >= 3 && crc16Modbus(frame, start, end) === 0;
}
