/**
 * Which consumer instance owns a station: a stable hash of the station's topic levels
 * (`<site>/<ppsId>`) modulo the number of instances. Every instance computes the same answer without
 * talking to the others, so each station's notifications reach exactly one instance and keep their
 * order there; a broker's `$share` round robin would spread one station over all of them (docs/mqtt.md#central-consumers).
 */

/** FNV-1a, 32 bits, over the UTF-8 bytes: stable across processes, versions and platforms. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export interface Partition {
  /** This instance, 0-based. */
  instance: number;
  /** How many instances share the stations. */
  instances: number;
}

export function owns(p: Partition, station: string): boolean {
  return fnv1a(station) % p.instances === p.instance;
}

export function checkPartition(p: Partition): Partition {
  if (!Number.isInteger(p.instances) || p.instances < 1) throw new Error("--instances must be 1 or more");
  if (!Number.isInteger(p.instance) || p.instance < 0 || p.instance >= p.instances)
    throw new Error(`--instance must be 0 to ${p.instances - 1}`);
  return p;
}
