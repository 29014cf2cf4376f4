/**
 * Open connections per source address, so one host cannot take every place of a server's connection
 * limit and starve the others (docs/limits.md). Pure: the listener asks before it keeps a socket and
 * gives the place back when the socket closes; the table only counts.
 *
 * @example const t = connectionTable(64); if (!t.take(addr)) socket.destroy(); socket.once("close", () => t.release(addr));
 */
export interface ConnectionTable {
  /**
   * Takes a place for `address`: false, and nothing taken, when it already holds `perAddress` (or
   * `limit`, when the caller holds this address to fewer).
   */
  take(address: string, limit?: number): boolean;
  /** Gives back a place taken for `address`. */
  release(address: string): void;
  /** Places `address` holds now. */
  count(address: string): number;
}

export function connectionTable(perAddress: number): ConnectionTable {
  const open = new Map<string, number>();
  return {
    take(address, limit = perAddress) {
      const n = open.get(address) ?? 0;
      if (n >= Math.min(perAddress, limit)) return false;
      open.set(address, n + 1);
      return true;
    },
    release(address) {
      const n = open.get(address) ?? 0;
      // deleted at zero: the table holds only addresses with a connection open
      if (n <= 1) open.delete(address);
      else open.set(address, n - 1);
    },
    count: (address) => open.get(address) ?? 0,
  };
}
