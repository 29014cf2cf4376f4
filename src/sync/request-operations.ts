import { z } from "zod";
import { backupIntoDataFolder, DEFAULT_KEEP } from "../db/backup.js";
import { backupOffLoop } from "../db/backup-off-loop.js";
import { auditCreateSchema, auditIdSchema } from "../domain/audit.schema.js";
import { catalogInputSchema } from "../domain/catalog.schema.js";
import { deadLetterReplaySchema } from "../domain/dead-letter.schema.js";
import { itemInputSchema } from "../domain/item.schema.js";
import { replayRequestSchema } from "../domain/notification-replay.schema.js";
import { productivityTargetsSchema } from "../domain/productivity.schema.js";
import {
  pauseSeatSchema,
  resumeSeatSchema,
  seatMessageSchema,
  signOutSchema,
} from "../domain/seat-control.schema.js";
import { requestIdSchema, stagePutSchema } from "../domain/service-request.schema.js";
import { rackPresentedSchema, stationModeSchema } from "../domain/station.schema.js";
import type { Services } from "../services/services.js";
import type { StationStatus } from "../services/status/station-status.js";
import { costly, operation, query, type RequestOperations, slowOperation, storing } from "./requests.js";

/** Who paused a seat or wrote to it when central names nobody. */
const CENTRAL = "central";

/** What the station's own requests need besides the use cases. */
export interface StationRequestDeps {
  /** The data folder: `request/backup` writes into its `backups/`. */
  dataDir: string;
  now(): number;
  /** The agent's own status, as `pps-edge status` shows it (services/status/agent-status.ts). */
  status(): StationStatus;
}

/**
 * Request name → the use case behind the matching HTTP endpoint, with the same body schema and the
 * same answer as `data` (docs/architecture.md#interfaces: "the payload is the HTTP body plus `transaction`"). Every call
 * runs inside the transaction that also writes the request's inbox row (requests.ts). The service
 * request operations validate their bodies themselves, exactly as over HTTP.
 */
export function requestOperations(s: Services, station: StationRequestDeps): RequestOperations {
  return {
    // POST …/service-request (the same create again returns the stored request)
    create_service_request: operation(z.unknown(), (body) => s.requests.create(body).view),
    // POST …/service-request/cancel and …/modify: a PICK is answered by order_modification later
    cancel_service_request: operation(z.unknown(), (body) => s.requests.cancel(body).body),
    modify_service_request: operation(z.unknown(), (body) => s.requests.modify(body).body),
    // POST …/stage_put_expectation: the outcome comes as put_information (staged or stage_failure)
    stage_put: operation(stagePutSchema, (b) => {
      s.operations.stagePut(b);
      return {};
    }),
    // POST …/audit and …/audit/delete/{audit_id}
    create_audit: operation(auditCreateSchema, (body) => s.audits.create(body)),
    delete_audit: operation(auditIdSchema, (b) => s.audits.delete(b.audit_id)),
    // POST …/item and …/catalog
    upsert_item: storing(operation(itemInputSchema, (body) => s.items.upsert(body))),
    upsert_catalog: storing(operation(catalogInputSchema, (body) => s.catalog.upsert(body))),
    // POST …/generate-inventory-report: report_generation follows when the file is written
    generate_inventory_report: costly(operation(z.object({}), () => s.reports.generate())),
    // POST …/orders/print_ready/{externalServiceRequestId}
    print_ready: operation(requestIdSchema, (b) => {
      s.operations.printReady(b.externalServiceRequestId);
      return { externalServiceRequestId: b.externalServiceRequestId };
    }),
    // POST /station/racks: central drives the robots, so it says when a rack reached the station
    rack_presented: operation(rackPresentedSchema, (b) => {
      s.operations.rackPresented(b);
      return { ok: true };
    }),
    // GET /station/notifications?after=…: read-only, sized to fit one message
    // (docs/mqtt.md#replaying-notifications)
    replay_notifications: query(replayRequestSchema, (b, room) =>
      s.notifications.replay({
        after: b.after,
        limit: b.limit,
        room: room.dataBytes,
        part: b.part,
        partRoom: room.steadyDataBytes,
      }),
    ),
    // no HTTP call: a backup into <dataDir>/backups, pruned like `pps-edge backup` (db/backup.ts), written
    // in a worker thread so that no size stalls the agent; the same transaction again answers the stored
    // result and takes no second backup
    backup: slowOperation(z.strictObject({}), async () => {
      const r = await backupIntoDataFolder(station.dataDir, {
        keep: DEFAULT_KEEP,
        now: new Date(station.now()),
        copy: backupOffLoop,
      });
      return { name: r.name, size: r.size, sha256: r.sha256 };
    }),
    // POST /station/outbox/dead-letters/replay (admins only, also on the broker: broker-acl.ts)
    replay_dead_letters: operation(deadLetterReplaySchema, (b) => s.deadLetters.replay(b.seqs)),
    // what `pps-edge status` says (GET /readyz); read-only, so answered afresh each time and not kept
    // in the inbox
    health_check: query(z.object({}).strict(), () => station.status()),
    // what central tells a seat (docs/mqtt.md#telling-a-seat): `by` names who, as central shows them
    pause_seat: operation(pauseSeatSchema, (b) =>
      s.seatControl.pause(b.seat, "central", b.by ?? CENTRAL, b.reason),
    ),
    resume_seat: operation(resumeSeatSchema, (b) => s.seatControl.resume(b.seat, "central", b.by ?? CENTRAL)),
    // PUT /station/mode: the mode is the station's, every seat works in it
    set_mode: operation(stationModeSchema, (b) => {
      s.operations.setMode(b.mode);
      return { mode: b.mode };
    }),
    send_message: operation(seatMessageSchema, (b) => s.seatControl.send(b.seat, b.text, b.by ?? CENTRAL)),
    sign_out: operation(signOutSchema, (b) => s.seatControl.signOut(b.seat)),
    // no HTTP call: the targets the seats' productivity is shown against (docs/mqtt.md#session-summaries);
    // answers the targets in effect afterwards
    set_productivity_targets: operation(productivityTargetsSchema, (b) => s.shift.setTargets(b)),
  };
}
