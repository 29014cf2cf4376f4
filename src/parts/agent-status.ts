/**
 * The running agent's own status (services/station/station-status.ts): its readiness checks as GET
 * /readyz runs them, the outbox and the station's state, as `request/health_check` answers. A part that
 * reports to systemd (STATUS=) can call the same function and print `statusLine` of it.
 */
import {
  evaluateReadiness,
  type ReadinessCheck,
  type StationStatus,
  stationStatus,
} from "../services/station/station-status.js";
import { VERSION } from "../version.js";
import type { Foundation } from "./foundation.js";

export function agentStatus(f: Foundation, checks: () => readonly ReadinessCheck[]): () => StationStatus {
  const since = new Date(f.now()).toISOString();
  return () => {
    const now = f.now();
    return stationStatus({
      version: VERSION,
      agent: { pid: process.pid, since },
      readiness: evaluateReadiness(checks()),
      outbox: f.svc.repos.outbox,
      state: f.svc.station.state(now, f.config.site),
      now,
    });
  };
}
