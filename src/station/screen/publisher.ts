/**
 * Keeps each seat's screen state and pushes it on every change (docs/station.md#operator-screen):
 * after every input the engine took (its watchers), every committed change on the bus (requests, the
 * station, audits, device health) and every tapped station operation. Changes that arrive together
 * are derived once (a microtask later, after the engine has set the lights), and a state equal to the
 * one last sent is not sent again. Only seats with a connected screen are derived on changes; a read
 * derives at once. The delivery to connected screens is fan-out.ts; the last event each seat
 * shows is kept by state/last-events.ts.
 */
import type { Logger } from "pino";
import type { DeviceHealth } from "../../devices/hub.types.js";
import type { ScreenPickRow } from "../../domain/screen-pick-row.js";
import type { EventBus } from "../../events.js";
import type { BinView } from "../bin-lights.js";
import type { EngineInput, Outcome } from "../engine.js";
import type { SeatState, StationMode } from "../seat.types.js";
import { createScreenFanOut, type ScreenListener } from "./fan-out.js";
import { isLang } from "./messages/messages.js";
import type { ScreenEventInput } from "./state/event.js";
import { createLastEvents } from "./state/last-events.js";
import { deriveScreen } from "./state/state.js";
import type { AuditLineRow, BinOrder, Lang, LastEvent, PutItemRow, ScreenState } from "./state/types.js";

const OWNER = "operator-screen";
/** Operators offered as login buttons. */
const RECENT_OPERATORS = 8;

/**
 * The screen's repository (db/screen.repo.ts, passed as it is): the work at the station as the screen
 * shows it (the orders in each bin, the pick lines on the presented racks and whether picks wait for a
 * rack, the racks, the staged puts' items, the audit being counted) and the operators seen at the
 * station with their languages. The two writes, an operator seen and an operator's language, are the
 * screen's own memory for its login buttons and its language: no station state, nothing to notify,
 * one statement each, so they are not a unit of work's change.
 */
export interface ScreenStore {
  orders(): Readonly<Record<string, BinOrder[]>>;
  pickLines(): ScreenPickRow[];
  pickWaiting(): boolean;
  racks(): string[];
  putItems(): PutItemRow[];
  audit(): { auditId: string; kq: boolean; lines: AuditLineRow[] } | null;
  operators(limit: number): string[];
  operatorLang(name: string): string | null;
  sawOperator(name: string, at: number): void;
  setOperatorLang(name: string, lang: string | null): void;
}

/** What the publisher reads about the station: the store, the engine's reads and the devices. */
export interface ScreenReads extends Omit<ScreenStore, "setOperatorLang"> {
  mode(): StationMode;
  user(seat: string): string | null;
  bins(): BinView[];
  devices(): DeviceHealth[];
  printErrors(): Readonly<Record<string, string>>;
}

export interface ScreenPublisherDeps {
  engine: {
    watch(w: (input: EngineInput, outcome: Outcome) => void): void;
    seats(): Array<{ seat: string } & SeatState>;
  };
  bus: EventBus;
  reads: ScreenReads;
  station: {
    site: string;
    ppsId: string;
    seats: readonly string[];
    language: Lang;
    stationPrinting: boolean;
    simulatedScanners: ReadonlySet<string>;
  };
  now: () => number;
  log: Logger;
}

type Seats = Map<string, SeatState>;

/**
 * Derives once for changes that arrive together: the first schedules `refresh` a microtask later (after
 * the engine has set the lights), the rest join it. Nothing is derived before start or after stop.
 */
function createRefreshSchedule(refresh: () => void) {
  let scheduled = false;
  let running = false;
  function flush(): void {
    scheduled = false;
    if (!running) return;
    refresh();
  }
  return {
    changed(): void {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(flush);
    },
    start(): void {
      running = true;
    },
    stop(): void {
      running = false;
    },
  };
}

/** One seat's screen state from what the station reads now (the seats' states given, read once per push). */
function seatScreen(
  deps: ScreenPublisherDeps,
  seat: string,
  seats: Seats,
  lastEvent: () => LastEvent | null,
) {
  const { reads, station } = deps;
  const mode = reads.mode();
  const operator = reads.user(seat);
  const own = operator === null ? null : reads.operatorLang(operator);
  return deriveScreen({
    seat,
    site: station.site,
    ppsId: station.ppsId,
    lang: isLang(own) ? own : station.language,
    mode,
    operator,
    seats,
    bins: reads.bins(),
    orders: reads.orders(),
    printErrors: reads.printErrors(),
    stationPrinting: station.stationPrinting,
    devices: reads.devices(),
    simulatedScanner: station.simulatedScanners.has(seat),
    racks: mode === "pick" ? reads.racks() : [],
    pickLines: mode === "pick" ? reads.pickLines() : [],
    pickWaiting: mode === "pick" && reads.pickWaiting(),
    puts: mode === "put" ? reads.putItems() : [],
    audit: mode === "audit" ? reads.audit() : null,
    operators: operator === null ? reads.operators(RECENT_OPERATORS) : [],
    lastEvent: lastEvent(),
  });
}

/** Operators logging in at any seat, by any path, are remembered for the login buttons. */
function operatorsSeen({ reads, station, now }: ScreenPublisherDeps): () => void {
  const users = new Map<string, string | null>();
  return () => {
    for (const seat of station.seats) {
      const user = reads.user(seat);
      if (user !== null && users.get(seat) !== user) reads.sawOperator(user, now());
      users.set(seat, user);
    }
  };
}

export function createScreenPublisher(deps: ScreenPublisherDeps) {
  const screens = createScreenFanOut();
  const lastEvents = createLastEvents({ seats: deps.station.seats, now: deps.now });
  const noteOperators = operatorsSeen(deps);

  const seatStates = (): Seats =>
    new Map(deps.engine.seats().map(({ seat, ...s }) => [seat, s as SeatState]));
  const state = (seat: string, seats = seatStates()): ScreenState =>
    seatScreen(deps, seat, seats, () => lastEvents.of(seat));

  const schedule = createRefreshSchedule(() => {
    try {
      noteOperators();
      const seats = seatStates();
      screens.send((seat) => JSON.stringify(state(seat, seats)));
    } catch (err) {
      deps.log.error({ err }, "operator screen refresh failed");
    }
  });
  const { changed } = schedule;

  /** Records what a seat (or, for a bin nobody had lit, every seat) just did, then pushes. */
  function record(seat: string | null, input: ScreenEventInput, outcome: Outcome): void {
    lastEvents.record(seat, input, outcome, seatStates(), deps.reads.bins());
    changed();
  }

  return {
    /** The seat's screen state now (GET /station/seats/{seat}/screen). */
    state: (seat: string): ScreenState => state(seat),

    /** Calls `listener` with the state's JSON now and on every change, until the returned function. */
    subscribe(seat: string, listener: ScreenListener): () => void {
      return screens.subscribe(seat, listener, () => JSON.stringify(state(seat)));
    },

    record,
    /** Something the screen shows changed outside the engine and the bus (a print job's result). */
    changed,
    start(): void {
      schedule.start();
      deps.engine.watch((input, outcome) => record(outcome.seat, input, outcome));
      for (const ev of ["request", "station", "audit", "labelJob"] as const) deps.bus.on(OWNER, ev, changed);
      noteOperators();
    },
    stop(): void {
      schedule.stop();
      deps.bus.off(OWNER);
      screens.clear();
    },
  };
}

export type ScreenPublisher = ReturnType<typeof createScreenPublisher>;
