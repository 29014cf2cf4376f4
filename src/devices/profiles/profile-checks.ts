/**
 * Rules that span several fields of a firmware profile (the zod shapes check each field alone).
 * Each rule returns the JSON path it is about, so a refused profile names the exact place to fix.
 */
import { SORTEXX_DELIMITERS } from "../drivers/sortexx/sortexx.codec.js";
import type { FirmwareProfileShape } from "./firmware-profile.schema.js";

export interface ProfileIssue {
  path: Array<string | number>;
  message: string;
}

/** The only ascii-fixed layout the codec implements: SorTexx 11-byte frames [SRC 33]. */
const SORTEXX_FIELDS = [
  ["shelf", 3],
  ["compartment", 3],
  ["command", 1],
  ["param", 1],
  ["result", 1],
] as const;

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

export function profileIssues(p: FirmwareProfileShape): ProfileIssue[] {
  const issues: ProfileIssue[] = [];
  const add = (path: Array<string | number>, message: string) => issues.push({ path, message });
  const needTransport = (types: string[], why: string) => {
    if (!types.includes(p.transport.type)) add(["transport", "type"], `must be ${types.join(" or ")} ${why}`);
  };

  for (const pointer of Object.keys(p.provenance)) {
    if (!pointerResolves(p, pointer)) add(["provenance", pointer], "points to no value in this profile");
  }

  switch (p.kind) {
    case "scanner": {
      const s = p.scanner;
      if (s.mode === "hid-pos") {
        needTransport(["hid"], "for mode hid-pos");
        const h = s.hidPos;
        if (h === undefined) {
          add(["scanner", "hidPos"], "is required for mode hid-pos");
          break;
        }
        const ends: Array<[string, number | null]> = [
          ["lengthOffset", h.lengthOffset + 1],
          ["aimOffset", h.aimOffset === null ? null : h.aimOffset + 3],
          ["vendorCodeIdOffset", h.vendorCodeIdOffset === null ? null : h.vendorCodeIdOffset + 1],
          ["continuedOffset", h.continuedOffset === null ? null : h.continuedOffset + 1],
          ["maxDataPerReport", h.dataOffset + h.maxDataPerReport],
        ];
        for (const [field, end] of ends) {
          if (end !== null && end > h.reportLength)
            add(["scanner", "hidPos", field], "lies beyond reportLength");
        }
      } else if (s.mode === "hid-keyboard") {
        needTransport(["hid"], "for mode hid-keyboard");
        const k = s.keyboard;
        if (k === undefined) {
          add(["scanner", "keyboard"], "is required for mode hid-keyboard");
          break;
        }
        if (k.altNumpad && k.altNumpadAbove127 === undefined) {
          add(["scanner", "keyboard", "altNumpadAbove127"], "is required when altNumpad is true");
        }
        if ((s.framing?.suffix ?? "") === "" && (k.idleTerminatorMs ?? null) === null) {
          add(["scanner", "framing", "suffix"], "a suffix or keyboard.idleTerminatorMs must end each scan");
        }
      } else {
        needTransport(["serial"], "for mode serial");
        if ((s.framing?.suffix ?? "") === "")
          add(["scanner", "framing", "suffix"], "is required for mode serial");
      }
      break;
    }
    case "ptl-controller": {
      const t = p.ptl;
      if (t.addressing.min > t.addressing.max) add(["ptl", "addressing", "min"], "must not exceed max");
      if (t.codec === "atop-ccb") {
        if (t.atopCcb === undefined) add(["ptl", "atopCcb"], "is required for codec atop-ccb");
        needTransport(["tcp", "serial"], "for codec atop-ccb");
      } else if (t.codec === "ascii-fixed") {
        needTransport(["serial"], "for codec ascii-fixed");
        const a = t.asciiFixed;
        if (a === undefined) add(["ptl", "asciiFixed"], "is required for codec ascii-fixed");
        else {
          if (SORTEXX_DELIMITERS[a.start] !== a.stop)
            add(["ptl", "asciiFixed", "stop"], "does not pair with start");
          const same =
            a.frameLength === 11 &&
            a.fields.length === SORTEXX_FIELDS.length &&
            a.fields.every((f, i) => f.name === SORTEXX_FIELDS[i]?.[0] && f.width === SORTEXX_FIELDS[i]?.[1]);
          if (!same) add(["ptl", "asciiFixed", "fields"], "only the SorTexx 11-byte layout is implemented");
        }
      } else if (t.codec === "modbus-rtu") {
        needTransport(["serial"], "for codec modbus-rtu");
        if (t.modbus === undefined) add(["ptl", "modbus"], "is required for codec modbus-rtu");
      }
      break;
    }
    case "bin-sensor": {
      const s = p.sensor;
      const names = new Set<string>();
      s.channels.forEach((c, i) => {
        if (names.has(c.name)) add(["sensor", "channels", i, "name"], "is used by another channel");
        names.add(c.name);
      });
      if (s.codec !== "modbus-rtu") break;
      needTransport(["serial"], "for codec modbus-rtu");
      if (s.modbus === undefined) {
        add(["sensor", "modbus"], "is required for codec modbus-rtu");
        break;
      }
      const points = s.modbus.points;
      s.channels.forEach((c, i) => {
        const pt = points[c.point];
        const at = ["sensor", "channels", i];
        if (pt === undefined) {
          add([...at, "point"], "names no point in sensor.modbus.points");
          return;
        }
        const count = pt.count ?? 1;
        if (pt.type === "bits") {
          if (pt.fc !== 1 && pt.fc !== 2) add([...at, "point"], "a bits point must be read with FC 1 or 2");
          if (c.bit >= count) add([...at, "bit"], `must be below the point's count (${count})`);
        } else if (pt.type === "bits-msb-first") {
          if (pt.fc !== 3 && pt.fc !== 4)
            add([...at, "point"], "a bits-msb-first point must be read with FC 3 or 4");
          if (c.bit < 1 || c.bit > count * 8) add([...at, "bit"], `must be a beam number 1..${count * 8}`);
        } else add([...at, "point"], "must name a point of type bits or bits-msb-first");
      });
      break;
    }
    case "printer": {
      const pr = p.printer;
      if (pr.language === "pdf-cups" && pr.cups === undefined)
        add(["printer", "cups"], "is required for pdf-cups");
      if (pr.language === "zpl-raw") {
        if (pr.raw === undefined) add(["printer", "raw"], "is required for zpl-raw");
        needTransport(["tcp"], "for zpl-raw");
      }
      break;
    }
  }
  return issues;
}
