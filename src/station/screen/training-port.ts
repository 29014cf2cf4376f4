/**
 * The screen routes' seats, each served by the station it works against (docs/station.md#training): a
 * seat in training by the training station's screen, every other seat by the station's own. The page
 * stays at `/screen/<seat>`; an open event stream moves with its seat when the seat enters or leaves
 * training, or the training starts over, and gets the new station's state at once. The taps that put
 * the seat in or out of training or start it over are answered here, whichever station serves the seat.
 */
import { isAppError } from "../../domain/errors.js";
import type { Outcome } from "../engine.js";
import type { ScreenActionBody, ScreenPort } from "./routes/screen.routes.js";

interface Subscription {
  listener: (json: string) => void;
  off: () => void;
}

/** Training as the screen's taps change it (app/training.part.ts): the same doors as the admin's HTTP routes. */
export interface TrainingControl {
  set(seat: string, training: boolean): Promise<unknown>;
  reset(): Promise<unknown>;
}

/**
 * A training tap (docs/station.md#training): entering, leaving, starting over (only at a seat in
 * training). A refusal (an operator logged in at the station's seat) is the tap's refusal, in words.
 */
async function trainingTap(
  control: TrainingControl,
  seat: string,
  inTraining: boolean,
  action: ScreenActionBody,
): Promise<Outcome> {
  try {
    if (action.type === "training") {
      await control.set(seat, action.training);
      return { seat, result: "done", did: action.training ? "training_entered" : "training_left" };
    }
    if (!inTraining)
      return {
        seat,
        result: "refused",
        reason: "not_in_training",
        message: `seat ${seat} is not in training`,
      };
    await control.reset();
    return { seat, result: "done", did: "training_reset" };
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { seat, result: "refused", reason: err.code, message: err.message };
  }
}

/**
 * `training(seat)`: the training station's screen when the seat is in training, else null; `control`
 * takes the screen's training taps (none: they go to the seat's station, which refuses them).
 */
export function createTrainingScreenPort(
  own: ScreenPort,
  training: (seat: string) => ScreenPort | null,
  control?: TrainingControl,
) {
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
    act: (seat, action, by) =>
      control && (action.type === "training" || action.type === "training_reset")
        ? trainingTap(control, seat, training(seat) !== null, action)
        : portOf(seat).act(seat, action, by),
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
