/**
 * The screens connected to each seat and the state last sent to them (the publisher's fan-out): a new
 * screen gets the state at once, and a state equal to the one last sent to the seat is not sent again.
 * The publisher decides when to derive (publisher.ts); this only delivers.
 */

export type ScreenListener = (json: string) => void;

export function createScreenFanOut() {
  const listeners = new Map<string, Set<ScreenListener>>();
  const sent = new Map<string, string>();

  return {
    /** Adds `listener` to the seat and calls it with `json()` now; the returned function removes it. */
    subscribe(seat: string, listener: ScreenListener, json: () => string): () => void {
      const set = listeners.get(seat) ?? new Set<ScreenListener>();
      listeners.set(seat, set);
      set.add(listener);
      const now = json();
      if (set.size === 1) sent.set(seat, now);
      listener(now);
      return () => {
        set.delete(listener);
        if (!set.size) sent.delete(seat);
      };
    },

    /** Sends each seat with a connected screen its state's JSON, unless that was the last sent there. */
    send(json: (seat: string) => string): void {
      for (const [seat, set] of listeners) {
        if (!set.size) continue;
        const text = json(seat);
        if (sent.get(seat) === text) continue;
        sent.set(seat, text);
        for (const l of set) l(text);
      }
    },

    /** Forgets every connected screen (the publisher stops). */
    clear(): void {
      listeners.clear();
    },
  };
}
