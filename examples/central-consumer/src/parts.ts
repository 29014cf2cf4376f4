/**
 * Notifications that came in parts (docs/mqtt.md#notifications-in-parts), put together per station
 * before anything else looks at them: a station sends a notification larger than its broker's message
 * limit as ordered parts on its `notification` topic. The codec is the agent's own pure module
 * (src/domain/notification-parts.ts, no dependencies besides node:crypto): copy it with this consumer.
 */
import { PartAssembler } from "../../../src/domain/notification-parts.js";
import type { ReplayPage } from "./replay.js";

export type PartsLog = (event: string, fields: Record<string, unknown>) => void;

export class StationParts {
  private readonly assemblers = new Map<string, PartAssembler>();

  constructor(private readonly log: PartsLog = () => {}) {}

  /**
   * One message of a station's `notification` topic. A whole notification comes back as it is; a part
   * comes back as the whole envelope, byte for byte as the station committed it, when it was the last
   * one missing, else `undefined`. A bad part, or a set that can no longer complete, is logged
   * (`part_refused`) and dropped: the notification is then a gap in the station's seq, repaired as any.
   */
  take(station: string, payload: string): string | undefined {
    let a = this.assemblers.get(station);
    if (!a) {
      a = new PartAssembler();
      this.assemblers.set(station, a);
    }
    const o = a.offer(payload);
    switch (o.kind) {
      case "whole":
        return payload;
      case "complete":
        return o.envelope.toString("utf8");
      case "pending":
        return undefined;
      case "refused":
        this.log("part_refused", { station, error: o.error, abandoned: o.abandoned });
        return undefined;
    }
  }
}

/**
 * The parts of one repair's replay answers (docs/mqtt.md#large-notifications-by-replay): a notification
 * too large for any answer comes one part an answer; the last one missing turns the page into one
 * that holds the whole envelope. One per repair: the parts of a replay never mix with the live topic's.
 */
export class ReplayedParts {
  private readonly assembler = new PartAssembler();

  constructor(
    private readonly station: string,
    private readonly log: PartsLog = () => {},
  ) {}

  /** The page with its part's notification put together, when that part completed it. */
  take(page: ReplayPage): ReplayPage {
    const p = page.part;
    if (!p) return page;
    const o = this.assembler.offer(p.payload);
    if (o.kind === "complete")
      return {
        ...page,
        notifications: [...page.notifications, { seq: p.seq, payload: o.envelope.toString("utf8") }],
      };
    if (o.kind === "refused" || o.kind === "whole")
      this.log("part_refused", {
        station: this.station,
        seq: p.seq,
        error: o.kind === "whole" ? "not a part" : o.error,
      });
    return page;
  }

  /** The `part` to ask with next: the following one of the same notification, else 0. */
  static next(page: ReplayPage): number {
    const p = page.part;
    return p && p.index + 1 < p.count ? p.index + 1 : 0;
  }
}
