import {
  type CaptureKind,
  type CaptureRules,
  captureNeeds,
  checkAll,
  isoDay,
  reportedAttributes,
} from "../../domain/capture.js";
import { AppError } from "../../domain/errors.js";
import type { PickTransactionInput } from "../../domain/station.schema.js";
import type { PickDeps } from "./pick-deps.js";

const NAMES: Record<CaptureKind, string> = { serial: "serial number", lot: "lot", expiry: "expiry date" };

/** The kinds the item needs captured at a pick (docs/capture.md#configuration). */
export function captureKindsOf(
  deps: { items: Pick<PickDeps["items"], "productAttributesOf"> },
  rules: CaptureRules,
  itemId: number,
): CaptureKind[] {
  return captureNeeds(rules, deps.items.productAttributesOf(itemId) ?? {});
}

/**
 * The captured values of one pick transaction, checked against what the item needs, as its actual's
 * product attributes report them (docs/capture.md#over-the-station-api): a missing or malformed value,
 * a serial on more than one unit, a passed expiry date or a serial picked before refuse the pick.
 */
export function capturedAttributes(
  deps: PickDeps,
  itemId: number,
  input: PickTransactionInput,
  now: number,
): Record<string, string> {
  const needs = captureKindsOf(deps, deps.capture, itemId);
  if (!needs.length) return {};
  const given = input.capture ?? {};
  for (const kind of needs) {
    if (given[kind] === undefined)
      throw new AppError("validation_failed", `this item needs its ${NAMES[kind]} captured`, [
        { path: `capture.${kind}`, message: `the ${NAMES[kind]} of the unit picked` },
      ]);
  }
  if (needs.includes("serial") && input.quantity !== 1)
    throw new AppError("validation_failed", "an item with a serial number is picked one unit at a time", [
      { path: "quantity", message: "1: one unit per serial number" },
    ]);
  const checked = checkAll(needs, given, isoDay(now, deps.timeZone));
  if (!checked.ok) {
    const code = checked.reason === "expired" ? "expired" : "validation_failed";
    throw new AppError(code, checked.message, [
      { path: `capture.${checked.field}`, message: checked.message },
    ]);
  }
  const serial = checked.values.serial;
  const rule = deps.capture.serial;
  if (serial !== undefined && rule && deps.requests.captured(rule.as, serial))
    throw new AppError("serial_taken", `serial number ${serial} was picked before`, [
      { path: "capture.serial", message: "already picked at this station" },
    ]);
  return reportedAttributes(deps.capture, checked.values);
}
