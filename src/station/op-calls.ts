/**
 * Carries out the operation calls the seat machine asks for, each through the operations door (one
 * transaction each, the same rules as the HTTP station API) or the audits service.
 */
import type { AuditsService } from "../services/audit/audit.service.js";
import type { Operations } from "../services/operations/operations.service.js";
import type { OpCall } from "./seat.types.js";

export type OpRunner = (seat: string, call: OpCall) => void;

export function createOpRunner(ops: Operations, audits: Pick<AuditsService, "count">): OpRunner {
  return (seat, c) => {
    switch (c.op) {
      case "login":
        return ops.login(seat, c.user);
      case "logout":
        return ops.logout(seat);
      case "rackPresented":
        return ops.rackPresented({ msu: c.msu, locations: c.locations });
      case "pick": {
        const { op: _, ...input } = c;
        ops.pick({ ...input, seat });
        return;
      }
      case "pickException": {
        const { op: _, ...input } = c;
        ops.pickException({ ...input, seat });
        return;
      }
      case "put": {
        const { op: _, ...input } = c;
        ops.put({ ...input, seat });
        return;
      }
      case "putException": {
        const { op: _, ...input } = c;
        ops.putException({ ...input, seat });
        return;
      }
      case "release":
        ops.release(c.externalServiceRequestId);
        return;
      case "binEmptied":
        return ops.binEmptied(c.binId);
      case "auditCount":
        audits.count(
          c.auditId,
          {
            audit_line_id: c.auditLineId,
            good_qty: c.good,
            damaged_qty: c.damaged ?? 0,
            unscannable_qty: c.unscannable ?? 0,
          },
          "scanned",
        );
        return;
    }
  };
}
