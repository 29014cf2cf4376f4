/**
 * What a serial scanner profile says (`scanner.mode: serial`): the scanner's framing, read by the line
 * splitter. It adds no fields of its own; a suffix is required, or no scan would ever end [SRC 19].
 */
import { MAX_SCAN_BYTES, scanInterpretOptions } from "../../codecs/scan-event.js";
import type { ScanInterpretOptions } from "../../codecs/scan-interpret.js";
import { type AddIssue, missingPart, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { type SerialScannerOptions, SerialScannerParser } from "./serial-scanner.codec.js";

export const serialScannerSpec = { kind: "scanner", protocols: ["serial"], parts: {} } as const;

export type SerialScannerProfile = SpecProfile<typeof serialScannerSpec>;

export function serialScannerChecks(p: SerialScannerProfile, add: AddIssue): void {
  needTransport(p, ["serial"], "for mode serial", add);
  if ((p.scanner.framing?.suffix ?? "") === "")
    add(["scanner", "framing", "suffix"], "is required for mode serial");
}

export function serialScannerOptions(p: SerialScannerProfile): SerialScannerOptions {
  const f = p.scanner.framing ?? missingPart(p, "scanner.framing");
  return {
    prefix: f.prefix ?? "",
    suffix: f.suffix ?? missingPart(p, "scanner.framing.suffix"),
    maxLength: f.maxLength ?? MAX_SCAN_BYTES,
  };
}

export interface SerialScannerCodec {
  parser: SerialScannerParser;
  interpret: ScanInterpretOptions;
}

export function serialScannerCodec(p: SerialScannerProfile): SerialScannerCodec {
  return { parser: new SerialScannerParser(serialScannerOptions(p)), interpret: scanInterpretOptions(p) };
}
