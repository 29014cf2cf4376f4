/**
 * Keeps each seat's screen state and pushes it on every change (README "Operator screen: server-driven"):
 * after every input the engine took (its watchers), every committed change on the bus (requests, the
 * station, audits, device health) and every tapped station operation. Changes that arrive together
 * are derived once (a microtask later, after the engine has set the lights), and a state equal to the
 * one last sent is not sent again. Only seats with a connected screen are derived on changes; a read
 * derives at once.
 */
import type { Logger } from "pino";
import type { DeviceHealth } from "../../devices/hub.types.js";
import type { EventBus } from "../../events.js";
import type { BinView } from "../bin-lights.js";
import type { EngineInput, EngineOutcome } from "../engine.js";
import { pendingBin } from "../seat.machine.js";
import type { SeatState, StationMode } from "../seat.types.js";
import { isLang, REFUSAL_KEYS } from "./messages.js";
import { type EventOutcome, lastEventOf, type ScreenEventInput } from "./screen.event.js";
import { deriveScreen } from "./screen.state.js";
import type {
  AuditLineRow,
  BinOrder,
  Lang,
  LastEvent,
  PickLineRow,
  PutItemRow,
  ScreenState,
} from "./screen.types.js";

const OWNER = "operator-screen";
/** Operators offered as login buttons. */
const RECENT_OPERATORS = 8;

/** What the publisher reads about the station (the composition binds repositories and the hub). */
export interface ScreenReads {
  mode(): StationMode;
  user(seat: string): string | null;
  bins(): BinView[];
  orders(): Readonly<Record<string, BinOrder[]>>;
  pickLines(): PickLineRow[];
  pickWaiting(): boolean;
  racks(): string[];
  putItems(): PutItemRow[];
  audit(): { auditId: string; kq: boolean; lines: AuditLineRow[] } | null;
  operators(limit: number): string[];
  operatorLang(name: string): string | null;
  sawOperator(name: string, at: number): void;
  devices(): DeviceHealth[];
  printErrors(): Readonly<Record<string, string>>;
}

export interface ScreenPublisherDeps {
  engine: {
    watch(w: (input: EngineInput, outcome: EngineOutcome) => void): void;
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

type Listener = (json: string) => void;

export function createScreenPublisher(deps: ScreenPublisherDeps) {
  const { reads, station } = deps;
  const listeners = new Map<string, Set<Listener>>();
  const sent = new Map<string, string>();
  const lastEvents = new Map<string, LastEvent>();
  const pending = new Map<string, string | null>();
  const users = new Map<string, string | null>();
  let seq = 0;
  let scheduled = false;
  let running = false;

  function seatStates(): Map<string, SeatState> {
    return new Map(deps.engine.seats().map(({ seat, ...s }) => [seat, s as SeatState]));
  }

  function langOf(operator: string | null): Lang {
    const own = operator === null ? null : reads.operatorLang(operator);
    return isLang(own) ? own : station.language;
  }

  function state(seat: string, seats = seatStates()): ScreenState {
    const mode = reads.mode();
    const operator = reads.user(seat);
    return deriveScreen({
      seat,
      site: station.site,
      ppsId: station.ppsId,
      lang: langOf(operator),
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
      lastEvent: lastEvents.get(seat) ?? null,
    });
  }

  /** Operators logging in at any seat, by any path, are remembered for the login buttons. */
  function noteOperators(): void {
    for (const seat of station.seats) {
      const user = reads.user(seat);
      if (user !== null && users.get(seat) !== user) reads.sawOperator(user, deps.now());
      users.set(seat, user);
    }
  }

  function flush(): void {
    scheduled = false;
    if (!running) return;
    try {
      noteOperators();
      const seats = seatStates();
      for (const [seat, set] of listeners) {
        if (!set.size) continue;
        const json = JSON.stringify(state(seat, seats));
        if (sent.get(seat) === json) continue;
        sent.set(seat, json);
        for (const l of set) l(json);
      }
    } catch (err) {
      deps.log.error({ err }, "operator screen refresh failed");
    }
  }

  function changed(): void {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(flush);
  }

  /** Records what a seat (or, for a bin nobody had lit, every seat) just did, then pushes. */
  function record(seat: string | null, input: ScreenEventInput, outcome: EventOutcome): void {
    const seats = seat === null ? station.seats : [seat];
    const now = seatStates();
    const bins = reads.bins();
    for (const s of seats) {
      const event = lastEventOf({
        seq: seq + 1,
        at: deps.now(),
        input,
        outcome,
        binBefore: pending.get(s) ?? null,
        binsAfter: bins,
        knownReasons: REFUSAL_KEYS,
      });
      if (event) {
        seq = event.seq;
        lastEvents.set(s, event);
      }
    }
    for (const [s, st] of now) pending.set(s, pendingBin(st));
    changed();
  }

  return {
    /** The seat's screen state now (GET /station/seats/{seat}/screen). */
    state: (seat: string): ScreenState => state(seat),

    /** Calls `listener` with the state's JSON now and on every change, until the returned function. */
    subscribe(seat: string, listener: Listener): () => void {
      const set = listeners.get(seat) ?? new Set<Listener>();
      listeners.set(seat, set);
      set.add(listener);
      const json = JSON.stringify(state(seat));
      if (set.size === 1) sent.set(seat, json);
      listener(json);
      return () => {
        set.delete(listener);
        if (!set.size) sent.delete(seat);
      };
    },

    record,
    /** Something the screen shows changed outside the engine and the bus (a print job's result). */
    changed,
    start(): void {
      running = true;
      deps.engine.watch((input, outcome) => record(outcome.seat, input, outcome));
      for (const ev of ["request", "station", "audit"] as const) deps.bus.on(OWNER, ev, changed);
      noteOperators();
    },
    stop(): void {
      running = false;
      deps.bus.off(OWNER);
      listeners.clear();
    },
  };
}

export type ScreenPublisher = ReturnType<typeof createScreenPublisher>;
