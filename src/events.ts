/**
 * The typed event bus (docs/architecture.md#layers): services announce what changed after a transaction commits;
 * station and sync subscribe. Subscriptions are keyed by owner so a part can drop all of its own on
 * stop. The bus only wakes readers up: delivery is guaranteed by the outbox, not by this bus.
 */
export interface AgentEvents {
  /** New notifications were committed; `lastSeq` is the newest. */
  outbox: { lastSeq: number };
  /** A service request changed (retained state, the operator screen). */
  request: { type: "PICK" | "PUT"; externalServiceRequestId: string };
  /** Station mode, seats, bins or racks changed. */
  station: Record<string, never>;
  /** A pick request is held back until `releaseAt` (pick_after_time): wake the scheduler then. */
  heldWork: { releaseAt: number };
  /** Every request of a bin has ended (bin_complete); `pack` when a label must be printed. */
  binComplete: { binId: string; pack: boolean; requests: string[] };
  /** A pick+pack box was closed as full: its label is printed (docs/station.md#bin-full-box-full). */
  boxClosed: { binId: string; boxes: Array<{ externalServiceRequestId: string; olpn: string }> };
  /** A shipping label job ended, printed or failed (labels/pack-labels.ts). */
  labelJob: { externalServiceRequestId: string };
  /** The label printer's own state changed (a Zebra's ~HS; labels/pack-labels.ts): null when it says none. */
  printer: { ok: boolean; problem: string | null; cause: string | null; printer: string } | null;
  /** An audit changed. */
  audit: { auditId: string };
  /** The station refused a staging central asked for (put_information stage_failure): the operator screen says why. */
  /** Central freed a bin: every order in it was cancelled or taken back before a pick (the operator screen says so). */
  binReleased: { binId: string; requests: string[] };
  stageFailed: {
    externalServiceRequestId: string;
    tote: string | null;
    bin: string;
    codes: string[];
    mode: string;
  };
}

type Handler<T> = (payload: T) => void;

export class EventBus {
  private readonly handlers = new Map<keyof AgentEvents, Map<string, Set<Handler<never>>>>();

  on<K extends keyof AgentEvents>(owner: string, event: K, handler: Handler<AgentEvents[K]>): void {
    const byOwner = this.handlers.get(event) ?? new Map<string, Set<Handler<never>>>();
    this.handlers.set(event, byOwner);
    const set = byOwner.get(owner) ?? new Set<Handler<never>>();
    byOwner.set(owner, set);
    set.add(handler as Handler<never>);
  }

  /** Drops every subscription of an owner (on its stop). */
  off(owner: string): void {
    for (const byOwner of this.handlers.values()) byOwner.delete(owner);
  }

  /** Calls every handler; a failing handler is reported and does not stop the others. */
  emit<K extends keyof AgentEvents>(event: K, payload: AgentEvents[K], onError?: (e: unknown) => void): void {
    const byOwner = this.handlers.get(event);
    if (!byOwner) return;
    for (const set of byOwner.values()) {
      for (const h of set) {
        try {
          (h as Handler<AgentEvents[K]>)(payload);
        } catch (e) {
          onError?.(e);
        }
      }
    }
  }
}
