/**
 * Rules that span several fields of a firmware profile (the zod shapes check each field alone): those
 * of the envelope and of each kind here, those of a protocol in its driver (`DeviceDriver.checks`).
 * Each rule names the JSON path it is about, so a refused profile names the exact place to fix.
 */
import type { AnyKindProfile } from "./profile-kinds.js";

export interface ProfileIssue {
  path: Array<string | number>;
  message: string;
}

export type AddIssue = (path: Array<string | number>, message: string) => void;

/** True when the RFC 6901 pointer names a value (null included) in `doc`. */
export function pointerResolves(doc: unknown, pointer: string): boolean {
  let node: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** The transport a protocol needs, e.g. HID POS reports only come over HID. */
export function needTransport(p: AnyKindProfile, types: readonly string[], why: string, add: AddIssue): void {
  if (!types.includes(p.transport.type)) add(["transport", "type"], `must be ${types.join(" or ")} ${why}`);
}

/** Rules of the envelope (provenance must point at values) and of the profile's kind. */
export function kindIssues(p: AnyKindProfile, add: AddIssue): void {
  for (const pointer of Object.keys(p.provenance)) {
    if (!pointerResolves(p, pointer)) add(["provenance", pointer], "points to no value in this profile");
  }
  if (p.kind === "ptl-controller") {
    const { min, max } = p.ptl.addressing;
    if (min > max) add(["ptl", "addressing", "min"], "must not exceed max");
  } else if (p.kind === "bin-sensor") {
    const names = new Set<string>();
    p.sensor.channels.forEach((c, i) => {
      if (names.has(c.name)) add(["sensor", "channels", i, "name"], "is used by another channel");
      names.add(c.name);
    });
  }
}

/** A part the checks made required is absent: the profile was not validated (a bug, not a user error). */
export function missingPart(profile: { profileId: string }, part: string): never {
  throw new RangeError(`profile ${profile.profileId} has no ${part}`);
}
