import { describe, expect, it } from "vitest";
import {
  AUDIT_INPUTS,
  AUDIT_STATUSES,
  AUDIT_TABLE,
  type AuditEffect,
  type AuditInputType,
  type AuditState,
  type AuditStatus,
  createAudit,
  type PausableStatus,
  stepAudit,
} from "../../../src/domain/audit.machine.js";
import { edges, expectRefused } from "./table.js";

const at = (status: Exclude<AuditStatus, "paused">): AuditState => ({ status });
const pausedFrom = (from: PausableStatus): AuditState => ({ status: "paused", pausedFrom: from });

// Decisions of audit.machine.ts, written out here rather than read from it.
const CANCELLABLE: Exclude<AuditStatus, "paused">[] = [
  "created",
  "processing_start",
  "auditlines_created",
  "waiting_on_conflict",
  "queued",
  "started",
  "pending_approval",
  "rejected",
  "sent_for_reaudit",
];
const PAUSABLE: PausableStatus[] = [
  "created",
  "auditlines_created",
  "waiting_on_conflict",
  "queued",
  "started",
  "pending_approval",
  "rejected",
  "sent_for_reaudit",
];

interface Row {
  start: AuditState;
  input: AuditInputType;
  target: AuditState;
  /** whether audit_information is emitted (with the target status) */
  notify: boolean;
}

// Spec "States and transitions" → "Audit", row by row, then the "any state" rows.
const rows: Row[] = [
  { start: at("created"), input: "start", target: at("processing_start"), notify: false },
  { start: at("created"), input: "delete", target: at("deleted"), notify: true },
  { start: at("processing_start"), input: "lines_built", target: at("auditlines_created"), notify: true },
  { start: at("processing_start"), input: "no_inventory", target: at("aborted"), notify: true },
  { start: at("auditlines_created"), input: "conflict", target: at("waiting_on_conflict"), notify: true },
  { start: at("auditlines_created"), input: "no_conflict", target: at("queued"), notify: true },
  { start: at("waiting_on_conflict"), input: "conflict_resolved", target: at("queued"), notify: true },
  { start: at("queued"), input: "begin", target: at("started"), notify: true },
  { start: at("started"), input: "discrepancy_found", target: at("pending_approval"), notify: true },
  { start: at("started"), input: "no_discrepancy", target: at("completed"), notify: true },
  { start: at("pending_approval"), input: "approve", target: at("approved"), notify: true },
  { start: at("pending_approval"), input: "reject", target: at("rejected"), notify: true },
  { start: at("rejected"), input: "reaudit", target: at("sent_for_reaudit"), notify: true },
  { start: at("sent_for_reaudit"), input: "begin", target: at("started"), notify: true },
  ...CANCELLABLE.map((s): Row => ({ start: at(s), input: "cancel", target: at("cancelled"), notify: true })),
  ...PAUSABLE.map(
    (s): Row => ({ start: pausedFrom(s), input: "cancel", target: at("cancelled"), notify: true }),
  ),
  ...PAUSABLE.map((s): Row => ({ start: at(s), input: "pause", target: pausedFrom(s), notify: true })),
  ...PAUSABLE.map((s): Row => ({ start: pausedFrom(s), input: "resume", target: at(s), notify: true })),
];

const name = (s: AuditState) => (s.status === "paused" ? `paused(from ${s.pausedFrom})` : s.status);
const same = (a: AuditState, b: AuditState) => JSON.stringify(a) === JSON.stringify(b);

function moved(state: AuditState, input: AuditInputType): { state: AuditState; effects: AuditEffect[] } {
  const step = stepAudit(state, { type: input } as Parameters<typeof stepAudit>[1]);
  if ("error" in step) throw new Error(`refused: ${step.error.reason}`);
  return step;
}

describe("audit machine: allowed moves", () => {
  for (const { start, input, target, notify } of rows) {
    it(`${name(start)} --${input}--> ${name(target)}`, () => {
      const step = moved(start, input);
      expect(step.state).toEqual(target);
      const sent = step.effects.filter((e) => e.kind === "notify");
      expect(sent).toEqual(
        notify ? [{ kind: "notify", type: "audit_information", status: target.status }] : [],
      );
    });
  }

  it("the exported table holds exactly these moves", () => {
    const mine = rows.map((r) => ({ from: r.start.status, input: r.input, to: r.target.status }));
    expect(edges(AUDIT_TABLE)).toEqual(edges(mine));
  });
});

describe("audit machine: refused moves leave the state as it was", () => {
  const starts: AuditState[] = [
    ...AUDIT_STATUSES.flatMap((s) => (s === "paused" ? [] : [at(s)])),
    ...PAUSABLE.map(pausedFrom),
  ];
  for (const start of starts) {
    for (const input of AUDIT_INPUTS) {
      if (rows.some((r) => r.input === input && same(r.start, start))) continue;
      it(`${name(start)} refuses ${input}`, () => {
        const before = JSON.stringify(start);
        expectRefused(stepAudit(start, { type: input } as never), start.status, input);
        expect(JSON.stringify(start)).toBe(before);
      });
    }
  }

  it("covers all fifteen statuses", () => {
    expect(new Set(starts.map((s) => s.status))).toEqual(new Set(AUDIT_STATUSES));
    expect(AUDIT_STATUSES).toHaveLength(15);
  });
});

describe("audit machine: effects", () => {
  it("creation emits the created notification", () => {
    expect(createAudit()).toEqual({
      state: { status: "created" },
      effects: [{ kind: "notify", type: "audit_information", status: "created" }],
    });
  });

  it("start asks for lines to be built, and built lines for a conflict check after the notification", () => {
    expect(moved(at("created"), "start").effects).toEqual([{ kind: "build_lines" }]);
    expect(moved(at("processing_start"), "lines_built").effects.map((e) => e.kind)).toEqual([
      "notify",
      "check_conflicts",
    ]);
  });

  it("approval corrects stock and approves the lines before notifying", () => {
    expect(moved(at("pending_approval"), "approve").effects).toEqual([
      { kind: "correct_stock" },
      { kind: "lines", input: "approve" },
      { kind: "notify", type: "audit_information", status: "approved" },
    ]);
  });

  it("reject, re-audit and cancel pass the same input to the lines", () => {
    expect(moved(at("pending_approval"), "reject").effects[0]).toEqual({ kind: "lines", input: "reject" });
    expect(moved(at("rejected"), "reaudit").effects[0]).toEqual({ kind: "lines", input: "reaudit" });
    expect(moved(pausedFrom("started"), "cancel").effects[0]).toEqual({ kind: "lines", input: "cancel" });
  });

  it("a paused created audit cannot be deleted", () => {
    expectRefused(stepAudit(pausedFrom("created"), { type: "delete" }), "paused", "delete");
  });
});
