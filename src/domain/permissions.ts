import type { Role } from "./roles.js";

/**
 * Who may perform each operation of the station (docs/roles.md): the one table every door reads. An
 * HTTP route names its operation's roles here (its route spec's `roles`), the embedded broker refuses a
 * request whose operation its user's role may not perform (sync/broker-acl.ts), and the operator screen
 * refuses a tap whose operation the caller may not perform (station/screen/routes/screen.routes.ts).
 * `admin` may perform every operation; it is named only where nobody else may. Pure: no IO.
 */
export const PERMISSIONS = {
  // the interface's master data, service requests, audits and reports: the central system's
  read_catalog: ["integration"],
  upsert_catalog: ["integration"],
  upsert_item: ["integration"],
  search_items: ["integration"],
  create_service_request: ["integration"],
  cancel_service_request: ["integration"],
  modify_service_request: ["integration"],
  read_service_request: ["integration"],
  stage_put: ["integration"],
  print_ready: ["integration"],
  create_audit: ["integration"],
  delete_audit: ["integration"],
  generate_inventory_report: ["integration"],
  download_report: ["integration"],
  // central drives the robots, so it says when a rack reached the station and left it
  rack_presented: ["integration"],
  rack_gone: ["integration"],
  // central reads the notifications it missed (docs/mqtt.md#replaying-notifications): they are what it
  // receives anyway, so the HTTP read is its too (docs/decisions.md)
  read_notifications: ["integration"],
  // the station's state, for central and the person at the station
  read_station: ["integration", "operator"],
  read_audit: ["integration", "operator"],
  // a person at the station: the seat, the work, the seat's devices and the operator screen
  seat_login: ["operator"],
  seat_logout: ["operator"],
  seat_input: ["operator"],
  pick: ["operator"],
  pick_exception: ["operator"],
  put: ["operator"],
  put_exception: ["operator"],
  release_put: ["operator"],
  put_back_stage: ["operator"],
  empty_bin: ["operator"],
  audit_begin: ["operator"],
  audit_count: ["operator"],
  // called away, the operator pauses the audit being counted and resumes it; the dashboard too
  audit_pause: ["operator"],
  audit_resume: ["operator"],
  use_screen: ["operator"],
  reprint_label: ["operator"],
  call_supervisor: ["operator"],
  set_language: ["operator"],
  // the station's management: admins only. At a seat a supervisor's badge or PIN authorises one of these
  // (docs/station.md#supervisor-at-the-seat): a label skipped leaves an order without its label
  // central also sets the mode (docs/mqtt.md#telling-a-seat)
  set_mode: ["integration"],
  skip_label: ["admin"],
  correct_stock: ["admin"],
  read_dead_letters: ["admin"],
  replay_dead_letters: ["admin"],
  read_security_events: ["admin"],
  audit_start: ["admin"],
  audit_approve: ["admin"],
  audit_reject: ["admin"],
  audit_reaudit: ["admin"],
  audit_cancel: ["admin"],
  // a backup copies the whole database (password hashes included) and works the disk
  backup: ["admin"],
  // training (docs/station.md#training): which seats practise, and starting the practice over
  read_training: ["operator"],
  set_training: ["admin"],
  reset_training: ["admin"],
  // what GET /readyz says, for whoever may reach the broker
  health_check: ["integration"],
  // what central tells a seat (docs/mqtt.md#telling-a-seat): pause and resume it, a message for its
  // operator, signing the operator out; the operator acknowledges the message
  pause_seat: ["integration"],
  message_seat: ["integration"],
  sign_out_operator: ["integration"],
  acknowledge_message: ["operator"],
  // a supervisor pauses and resumes a seat on its screen (docs/station.md#pausing-a-seat): admins
  supervise_seat: ["admin"],
  // central sets the targets the seats' productivity is shown against (docs/station.md#productivity-and-the-shift)
  set_productivity_targets: ["integration"],
  // a unit of a confirmed pick put into the wrong bin, corrected at the seat by a supervisor (docs/station.md#undo)
  correct_pick_bin: ["admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Operation = keyof typeof PERMISSIONS;

/** The roles that may perform `op` (admin implied), as a route spec's `roles` takes them. */
export function rolesFor(op: Operation): Role[] {
  return [...PERMISSIONS[op]];
}

/** Whether `role` may perform `op`: admin may perform everything. */
export function mayPerform(role: Role, op: Operation): boolean {
  return role === "admin" || (PERMISSIONS[op] as readonly Role[]).includes(role);
}
