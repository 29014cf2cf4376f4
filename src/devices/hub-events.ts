/**
 * The hub's event routing: every device event is counted and handed to every subscriber. Subscribers
 * register under an owner so a part drops all of its handlers on stop; one that throws is logged and the
 * others still get the event.
 */
import type { Logger } from "pino";
import type { DeviceCounters } from "./device-health.js";
import type { DeviceEvent, DeviceHub } from "./hub.types.js";

export interface EventRouter extends Pick<DeviceHub, "onEvent" | "off"> {
  /** What adapters call (AdapterContext.emit) for each scan, press and sensor edge. */
  emit(event: DeviceEvent): void;
}

export function createEventRouter(counted: DeviceCounters["events"], log: Logger): EventRouter {
  const handlers = new Map<string, Set<(event: DeviceEvent) => void>>();

  function emit(event: DeviceEvent): void {
    counted.inc({ device: event.deviceId, type: event.type });
    for (const set of handlers.values()) {
      for (const h of set) {
        try {
          h(event);
        } catch (err) {
          log.error({ err, device: event.deviceId }, "device event handler failed");
        }
      }
    }
  }

  return {
    emit,
    onEvent(owner, handler) {
      const set = handlers.get(owner) ?? new Set();
      set.add(handler);
      handlers.set(owner, set);
    },
    off(owner) {
      handlers.delete(owner);
    },
  };
}
