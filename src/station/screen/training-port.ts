/**
 * The screen routes' seats, each served by the station it works against (docs/station.md#training): a
 * seat in training by the training station's screen, every other seat by the station's own. The page
 * stays at `/screen/<seat>`; an open event stream moves with its seat when the seat enters or leaves
 * training, or the training starts over, and gets the new station's state at once.
 */
import type { ScreenPort } from "./routes/screen.routes.js";

interface Subscription {
  listener: (json: string) => void;
  off: () => void;
}

/** `training(seat)`: the training station's screen when the seat is in training, else null. */
export function createTrainingScreenPort(own: ScreenPort, training: (seat: string) => ScreenPort | null) {
  const subscriptions = new Map<string, Set<Subscription>>();
  const portOf = (seat: string): ScreenPort => training(seat) ?? own;

  const port: ScreenPort = {
    seats: own.seats,
    state: (seat) => portOf(seat).state(seat),
    subscribe(seat, listener) {
      const sub: Subscription = { listener, off: portOf(seat).subscribe(seat, listener) };
      const mine = subscriptions.get(seat) ?? new Set();
      subscriptions.set(seat, mine);
      mine.add(sub);
      return () => {
        sub.off();
        mine.delete(sub);
      };
    },
    act: (seat, action, by) => portOf(seat).act(seat, action, by),
    // supervisors are the station's users, whichever station the seat works against
    ...(own.supervisor ? { supervisor: own.supervisor } : {}),
  };
  return {
    port,
    /** The seat now works against another station: its open streams follow, with that station's state. */
    moved(seat: string): void {
      for (const sub of subscriptions.get(seat) ?? []) {
        sub.off();
        sub.off = portOf(seat).subscribe(seat, sub.listener);
      }
    },
  };
}

export type TrainingScreenPort = ReturnType<typeof createTrainingScreenPort>;
