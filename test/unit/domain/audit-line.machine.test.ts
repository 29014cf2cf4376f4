import { describe, expect, it } from "vitest";
import {
  AUDIT_LINE_INPUTS,
  AUDIT_LINE_STATUSES,
  AUDIT_LINE_TABLE,
  type AuditLineInput,
  type AuditLineInputType,
  type AuditLineStatus,
  INITIAL_AUDIT_LINE_STATUS,
  stepAuditLine,
} from "../../../src/domain/audit-line.machine.js";
import { edges, expectRefused, missingPairs } from "./table.js";

const counted = (discrepancy: boolean): AuditLineInput => ({ type: "counted", discrepancy });
const variants: Record<AuditLineInputType, AuditLineInput[]> = {
  begin: [{ type: "begin" }],
  counted: [counted(false), counted(true)],
  approve: [{ type: "approve" }],
  reject: [{ type: "reject" }],
  reaudit: [{ type: "reaudit" }],
  cancel: [{ type: "cancel" }],
};
const one = (type: AuditLineInputType): AuditLineInput => variants[type][0] as AuditLineInput;

// The lifecycle documented in audit-line.machine.ts (spec: line transitions not shown).
const rows: { start: AuditLineStatus; input: AuditLineInput; target: AuditLineStatus }[] = [
  { start: "auditline_queued", input: one("begin"), target: "auditline_started" },
  { start: "auditline_sent_for_reaudit", input: one("begin"), target: "auditline_started" },
  { start: "auditline_started", input: counted(false), target: "auditline_completed" },
  { start: "auditline_started", input: counted(true), target: "auditline_pending_approval" },
  { start: "auditline_pending_approval", input: one("approve"), target: "auditline_approved" },
  { start: "auditline_pending_approval", input: one("reject"), target: "auditline_rejected" },
  { start: "auditline_rejected", input: one("reaudit"), target: "auditline_sent_for_reaudit" },
  { start: "auditline_queued", input: one("cancel"), target: "auditline_cancelled" },
  { start: "auditline_started", input: one("cancel"), target: "auditline_cancelled" },
  { start: "auditline_pending_approval", input: one("cancel"), target: "auditline_cancelled" },
  { start: "auditline_rejected", input: one("cancel"), target: "auditline_cancelled" },
  { start: "auditline_sent_for_reaudit", input: one("cancel"), target: "auditline_cancelled" },
];

describe("audit line machine: allowed moves", () => {
  for (const { start, input, target } of rows) {
    const label = input.type === "counted" ? `counted(discrepancy=${input.discrepancy})` : input.type;
    it(`${start} --${label}--> ${target}`, () => {
      expect(stepAuditLine(start, input)).toEqual({ state: target, effects: [] });
    });
  }

  it("the exported table holds exactly these moves", () => {
    const mine = rows.map((r) => ({ from: r.start, input: r.input.type, to: r.target }));
    expect(edges(AUDIT_LINE_TABLE)).toEqual(edges(mine));
  });

  it("lines start queued", () => {
    expect(INITIAL_AUDIT_LINE_STATUS).toBe("auditline_queued");
  });
});

describe("audit line machine: refused moves", () => {
  const allowed = rows.map((r) => ({ from: r.start, input: r.input.type }));
  for (const { from, input } of missingPairs(AUDIT_LINE_STATUSES, AUDIT_LINE_INPUTS, allowed)) {
    it(`${from} refuses ${input}`, () => {
      for (const variant of variants[input]) expectRefused(stepAuditLine(from, variant), from, input);
    });
  }

  it("final lines refuse everything", () => {
    for (const from of ["auditline_completed", "auditline_approved", "auditline_cancelled"] as const) {
      for (const input of AUDIT_LINE_INPUTS) {
        for (const variant of variants[input]) expectRefused(stepAuditLine(from, variant), from, input);
      }
    }
  });
});
