import { createMqttRepo } from "../db/mqtt.repo.js";
import type { Sqlite } from "../db/open.js";
import { isAppError } from "../domain/errors.js";
import type { Services } from "../services/services.js";
import { VERSION } from "../version.js";
import type { RequestSnapshots } from "./retained-messages.js";

/**
 * What `state/station` carries (docs/architecture.md#interfaces): mode, seats, bins (with the requests they hold), racks,
 * devices and their health, as GET /station/state reads them, the newest notification's sequence number
 * and the agent's version. The pick queue and puts are left out:
 * each request has its own retained `state/<type>/<id>`, and a station message that changed with every
 * request would be republished for every change.
 */
export function stationSnapshot(services: Services, site: string, now: () => number): () => object {
  return () => {
    const { pickQueue: _q, heldBack: _h, puts: _p, bins, ...rest } = services.station.state(now(), site);
    return {
      ...rest,
      bins: bins.map((b) => ({ ...b, requests: b.requests.map(({ state: _s, ...r }) => r) })),
      // The high-water mark: the sequence number of the newest notification the station has produced, so
      // central sees a gap even after the last message of a burst (docs/mqtt.md#gaps-and-the-high-water-mark).
      lastNotificationSeq: services.repos.outbox.lastSeq(),
      // which agent publishes this, so central sees an upgrade or rollback of the station box
      version: VERSION,
      timestamp: new Date(now()).toISOString(),
    };
  };
}

/**
 * `state/<type>/<externalServiceRequestId>`: the full current service request, as HTTP GET returns it,
 * while the request is active and for `mqtt.retainTerminalSeconds` after it became final.
 */
export function requestSnapshots(
  services: Services,
  sqlite: Sqlite,
  retention: { retainTerminalSeconds: number; now(): number },
): RequestSnapshots {
  const repo = createMqttRepo(sqlite);
  const retainMs = retention.retainTerminalSeconds * 1000;
  return {
    snapshot(type, externalServiceRequestId) {
      // Final for long enough: its retained state is cleared, so the broker holds the active ones only.
      const finalSince = repo.finalSince(type, externalServiceRequestId);
      if (finalSince !== undefined && finalSince + retainMs <= retention.now()) return undefined;
      try {
        return services.requests.get(externalServiceRequestId, type === "PUT" ? "PUT" : "PICK") as object;
      } catch (e) {
        if (isAppError(e) && e.code === "not_found") return undefined;
        throw e;
      }
    },
    list: (after, limit) => repo.requestPage(after, limit),
    clearing(k) {
      const decidedAt = retention.now();
      return () => repo.markCleared(k.type, k.externalServiceRequestId, decidedAt);
    },
    due: (limit) => repo.dueForClearing(retention.now() - retainMs, limit),
  };
}
