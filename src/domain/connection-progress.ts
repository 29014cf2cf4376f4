/**
 * Whether an HTTP connection makes progress, and which to cut when it does not (docs/limits.md#slow-readers).
 * A client that sends requests and never reads the answers passes every timeout of Node's HTTP server
 * (they watch what the client sends, not what it takes), holds its connection for ever and keeps its
 * answers in memory. Pure: the server samples each connection (bytes of its answers not yet taken,
 * bytes the kernel took, requests begun and answered) and this file decides, with `now` passed in:
 * - the send deadline: answers waiting for `sendTimeoutMs` while the client took less than
 *   `minSendBytesPerSecond` of them: the connection is cut;
 * - the answer budget: over `budgetBytes` of answers waiting on all connections together, those whose
 *   client stopped taking them are cut, the most held first, and a costly request from an address
 *   holding any is refused until they are under it;
 * - eviction: when every connection place is taken, a newcomer takes the place of a connection not
 *   being served of a host holding more places than its own, so hosts that never read cannot lock the
 *   others out (`evictable`).
 */

/** What the server sees of one connection at a moment. */
export interface ConnectionSample {
  /** Bytes of answers built and not yet handed to the kernel. */
  held: number;
  /** Bytes the kernel has taken so far (the socket's `bytesWritten`). */
  written: number;
  /** Requests begun so far (handed to the app). */
  begun: number;
  /** Requests answered so far (each answer's last byte handed to the kernel). */
  answered: number;
}

export interface ProgressRules {
  /** How long answers may wait while their client takes less than `minSendBytesPerSecond`. */
  sendTimeoutMs: number;
  /** The slowest pace an answer may be taken at, over each `sendTimeoutMs`. */
  minSendBytesPerSecond: number;
  /** Bytes of answers waiting, on all connections together, before the slowest readers are cut. */
  budgetBytes: number;
  /** How long a connection must have made no progress to be cut over the budget or evicted. */
  stallMs: number;
  /**
   * Places an address may hold open at once for `holdPlacesMs` after the station cut one of its
   * connections for unread answers.
   */
  heldBackPlaces: number;
}

/** Bytes a client must take for it to count as progress (less is a slow reader's trickle). */
export const PROGRESS_BYTES = 16 * 1024;

export interface Progress {
  acceptedAt: number;
  /** The last moment the connection made progress: accepted, a request begun or answered, answers taken. */
  movedAt: number;
  /** `written` at `movedAt`. */
  writtenAtMove: number;
  /** The send window: from when answers began waiting, rebased every `sendTimeoutMs` they keep pace. */
  window: { from: number; written: number } | undefined;
  last: ConnectionSample;
}

export function accepted(now: number): Progress {
  return {
    acceptedAt: now,
    movedAt: now,
    writtenAtMove: 0,
    window: undefined,
    last: { held: 0, written: 0, begun: 0, answered: 0 },
  };
}

/** The connection's progress after `sample`; `cut` when it missed the send deadline. */
export function observe(
  p: Progress,
  sample: ConnectionSample,
  now: number,
  rules: ProgressRules,
): { progress: Progress; cut: boolean } {
  let { movedAt, writtenAtMove, window } = p;
  if (sample.begun > p.last.begun || sample.answered > p.last.answered) {
    movedAt = now;
    writtenAtMove = sample.written;
  } else if (sample.written - writtenAtMove >= PROGRESS_BYTES) {
    movedAt = now;
    writtenAtMove = sample.written;
  }
  let cut = false;
  if (sample.held === 0) window = undefined;
  else if (!window) window = { from: now, written: sample.written };
  else if (now - window.from >= rules.sendTimeoutMs) {
    const taken = sample.written - window.written;
    if (taken < (rules.minSendBytesPerSecond * (now - window.from)) / 1000) cut = true;
    else window = { from: now, written: sample.written };
  }
  return { progress: { ...p, movedAt, writtenAtMove, window, last: sample }, cut };
}

/** One connection as the budget and eviction see it. */
export interface Watched<Id> {
  id: Id;
  address: string;
  progress: Progress;
  /** Requests begun and not yet answered. */
  inFlight: number;
}

const heldBy = <Id>(w: Watched<Id>) => w.progress.last.held;

/** The connections to cut, the most held first, to bring the answers waiting under the budget. */
export function overBudget<Id>(all: readonly Watched<Id>[], now: number, rules: ProgressRules): Id[] {
  let total = all.reduce((sum, w) => sum + heldBy(w), 0);
  if (total <= rules.budgetBytes) return [];
  const stalled = all
    .filter((w) => heldBy(w) > 0 && now - w.progress.movedAt >= rules.stallMs)
    .sort((a, b) => heldBy(b) - heldBy(a));
  const cut: Id[] = [];
  for (const w of stalled) {
    if (total <= rules.budgetBytes) break;
    cut.push(w.id);
    total -= heldBy(w);
  }
  return cut;
}

/**
 * Whether an address the station cut a connection of for answers it left unread (at `cutAt`) is still
 * held back: its costly requests refused for `sendTimeoutMs`, since it would only leave more unread.
 */
export function heldBack(cutAt: number | undefined, now: number, rules: ProgressRules): boolean {
  return cutAt !== undefined && now - cutAt < rules.sendTimeoutMs;
}

/**
 * Places `address` may hold open at once: `perAddress`, or within `holdPlacesMs` of the station cutting
 * a connection of it for unread answers (`cutAt`) at most `heldBackPlaces`. A host whose connections
 * are ended so and which opens them again at once (a slow-read attack) would have each new one sent
 * what its kernel takes, megabytes on a fast link, for nothing; held to a few places it costs the
 * station a refused connect instead.
 */
export function placesFor(
  perAddress: number,
  cutAt: number | undefined,
  now: number,
  rules: ProgressRules,
): number {
  return cutAt !== undefined && now - cutAt < holdPlacesMs(rules)
    ? Math.min(perAddress, rules.heldBackPlaces)
    : perAddress;
}

/**
 * How long after its last cut an address is held to `heldBackPlaces`: two send deadlines, so that the
 * hold outlasts the deadline of the connections it is allowed meanwhile. Held for one only, a host that
 * reopens at once would have its few connections cut just after the hold ended and open all its places
 * again, a burst every deadline.
 */
export function holdPlacesMs(rules: ProgressRules): number {
  return 2 * rules.sendTimeoutMs;
}

/**
 * Whether a costly request from `address` may begin: not within `sendTimeoutMs` of the station cutting
 * a connection of that address for answers it left unread (`cutAt`: it would only build more of them,
 * each a search's worth of work on the station's one event loop); otherwise while the answers waiting
 * are within the budget, or when its address holds none of them (a client that reads its answers is
 * served whatever others do).
 */
export function admitsCostly<Id>(
  all: readonly Watched<Id>[],
  address: string,
  rules: ProgressRules,
  now = 0,
  cutAt?: number,
): boolean {
  if (heldBack(cutAt, now, rules)) return false;
  let total = 0;
  let own = 0;
  for (const w of all) {
    total += heldBy(w);
    if (w.address === address) own += heldBy(w);
  }
  return total < rules.budgetBytes || own === 0;
}

/**
 * The connection a newcomer from `address` may take the place of when every place is taken, or
 * undefined. Never one being served (an answer in the making, or streaming to a client that takes it).
 * Of the others, any of a host holding more places than the newcomer's host would after it, or, for a
 * newcomer whose host holds none, one that made no progress for `stallMs`: a host with few connections
 * always gets in, whatever hosts with many do; never a keep-alive one answered within `stallMs`. From the host holding most places first, then stalled
 * on its answers before never having had a request answered (a silent or slow-header socket) before
 * idle keep-alive, then the longest without progress.
 */
export function evictable<Id>(
  all: readonly Watched<Id>[],
  address: string,
  now: number,
  rules: ProgressRules,
): Id | undefined {
  const places = new Map<string, number>();
  for (const w of all) places.set(w.address, (places.get(w.address) ?? 0) + 1);
  const mine = places.get(address) ?? 0;
  let best: { id: Id; key: [number, number, number] } | undefined;
  for (const w of all) {
    const { progress } = w;
    const held = heldBy(w) > 0;
    if (!held && w.inFlight > 0) continue;
    const hostPlaces = places.get(w.address) ?? 0;
    // a host with more places than the newcomer's would have gives one up; one that made no progress
    // is taken for a host with none (many hosts of one place each must not lock the others out); hosts
    // of equal share never take each other's places (their turnover would cost answers for nothing)
    const stalled = now - progress.movedAt >= rules.stallMs;
    if (!(hostPlaces > mine + 1 || (mine === 0 && stalled))) continue;
    const rank = held ? 0 : progress.last.answered === 0 ? 1 : 2;
    // a keep-alive connection answered less than `stallMs` ago is about to be used again: a client
    // whose next request met its close would see it reset
    if (rank === 2 && !stalled) continue;
    const key: [number, number, number] = [-hostPlaces, rank, progress.movedAt];
    if (!best || before(key, best.key)) best = { id: w.id, key };
  }
  return best?.id;
}

function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++)
    if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) < (b[i] as number);
  return false;
}
