/**
 * Notifications that came in parts (docs/mqtt.md#notifications-in-parts), put together per station
 * before anything else looks at them: a station sends a notification larger than its broker's message
 * limit as ordered parts on its `notification` topic. The codec is the agent's own pure module
 * (src/domain/notification-parts.ts, no dependencies besides node:crypto): copy it with this consumer.
 */
import { PartAssembler } from "../../../src/domain/notification-parts.js";

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
