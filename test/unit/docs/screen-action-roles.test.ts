/**
 * docs/roles.md#screen-action--role says, for every tap of the operator screen, its operation and who may
 * make it; this checks the table against SCREEN_ACTION_OPERATION and the one table of permissions, and
 * that the taps the key session may not make are exactly the ones the screen shows as a supervisor's.
 */
import { describe, expect, it } from "vitest";
import { mayPerform } from "../../../src/domain/permissions.js";
import { SCREEN_ACTION_OPERATION } from "../../../src/station/screen/actions.js";
import { DISPLAY_ROLE, supervisedTaps } from "../../../src/station/screen/screen-roles.js";
import { codes, doc, section, tableRows } from "../../support/readme.js";

const rows = tableRows(section("Screen action × role", doc("docs/roles.md")))
  .filter(([tap = ""]) => codes(tap).length > 0)
  .map(([tap = "", op = "", operator = "", admin = ""]) => ({
    tap: codes(tap)[0] ?? tap,
    op: codes(op)[0] ?? op,
    operator: operator.trim(),
    admin: admin.trim(),
  }));

describe("docs/roles.md: screen action × role", () => {
  it("lists every screen action with the operation the code gives it, and only those", () => {
    expect(Object.fromEntries(rows.map((r) => [r.tap, r.op]))).toEqual({ ...SCREEN_ACTION_OPERATION });
  });

  it("says an operator (and the key session) may make a tap exactly when the table of permissions lets them, else a supervisor authorises it", () => {
    const supervised = new Set<string>(supervisedTaps());
    for (const r of rows) {
      const op = SCREEN_ACTION_OPERATION[r.tap as keyof typeof SCREEN_ACTION_OPERATION];
      const may = mayPerform(DISPLAY_ROLE, op);
      expect([r.tap, r.operator]).toEqual([r.tap, may ? "✓" : "supervisor"]);
      expect([r.tap, supervised.has(r.tap)]).toEqual([r.tap, !may]);
      expect([r.tap, r.admin]).toEqual([r.tap, mayPerform("admin", op) ? "✓" : ""]);
    }
  });
});
