/**
 * The station file: read, validated against the firmware profiles, addresses made canonical; or, with
 * no file, the embedded simulated station (docs/architecture.md#the-station-model). A bad file stops the start with the file, the
 * dotted path and the reason, as a bad config or profile does.
 *
 * Which seats and bins the station then has, and where each device event belongs, is the station
 * topology's (station/topology.ts).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { type BinDefinition, type StationFile, stationFileSchema } from "../../config/station-file.schema.js";
import { AppError, type FieldError } from "../../domain/errors.js";
import type { FirmwareProfile } from "../profiles/firmware-profile.schema.js";
import { loadProfiles } from "../profiles/load-profiles.js";
import { canonicalAddress, SIM_PROFILE, stationIssues } from "./station-file.checks.js";

/** The profiles shipped with the agent (`<package>/firmware-profiles/`, from src/ and dist/ alike). */
export const DEFAULT_PROFILES_DIR = fileURLToPath(new URL("../../../firmware-profiles/", import.meta.url));

export interface LoadedStation {
  /** The file read, or null for the embedded default station. */
  source: string | null;
  definition: StationFile;
  profiles: ReadonlyMap<string, FirmwareProfile>;
}

export function stationError(file: string, errors: FieldError[]): AppError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  const summary = first === undefined ? "invalid" : `${first.path}: ${first.message}`;
  return new AppError("validation_failed", `station file ${file}: ${summary}${more}`, errors, { file });
}

function zodErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const extra = issue.code === "unrecognized_keys" ? [issue.keys[0] ?? ""] : [];
    const path = [...issue.path, ...extra].map(String).join(".") || "(root)";
    return { path, message: issue.code === "unrecognized_keys" ? "unknown key" : issue.message };
  });
}

/** Validates parsed YAML; `file` only labels errors. Light addresses come back canonical. */
export function validateStation(
  file: string,
  raw: unknown,
  profiles: ReadonlyMap<string, FirmwareProfile>,
): StationFile {
  const parsed = stationFileSchema.safeParse(raw);
  if (!parsed.success) throw stationError(file, zodErrors(parsed.error));
  const issues = stationIssues(parsed.data, profiles);
  if (issues.length > 0) throw stationError(file, issues);
  const def = parsed.data;
  const profileOf = (device: string) => {
    const d = def.devices.find((x) => x.id === device);
    return (d && profiles.get(d.profile)) ?? null;
  };
  const canon = (b: BinDefinition): BinDefinition => {
    if (!b.light) return b;
    const a = canonicalAddress(profileOf(b.light.device), b.light.address);
    return typeof a === "string" ? { ...b, light: { ...b.light, address: a } } : b;
  };
  const station = { ...def.station, bins: def.station.bins.map(canon) };
  if (def.station.irtBin) station.irtBin = canon(def.station.irtBin);
  return { ...def, station };
}

export function parseStationText(
  file: string,
  text: string,
  profiles: ReadonlyMap<string, FirmwareProfile>,
): StationFile {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw stationError(file, [{ path: "(root)", message: `not valid YAML: ${(e as Error).message}` }]);
  }
  return validateStation(file, raw, profiles);
}

/**
 * The embedded station (docs/architecture.md#the-station-model): one simulated light controller with a light (and its button) per
 * bin at address = bin id, one simulated scanner per seat, one simulated sensor channel `bin-<id>` per bin.
 */
export function defaultStation(seats: readonly string[], bins: readonly string[]): StationFile {
  const sim = { type: "sim" } as const;
  return {
    station: {
      seats: [...seats],
      bins: bins.map((id) => ({
        id,
        light: { device: "sim-ptl", address: id },
        sensor: { device: "sim-sensors", channel: `bin-${id}` },
      })),
    },
    devices: [
      { id: "sim-ptl", kind: "ptl-controller", profile: SIM_PROFILE, transport: sim },
      { id: "sim-sensors", kind: "bin-sensor", profile: SIM_PROFILE, transport: sim },
      ...seats.map((seat) => ({
        id: `sim-scanner-${seat}`,
        kind: "scanner" as const,
        profile: SIM_PROFILE,
        seat,
        transport: sim,
      })),
    ],
  };
}

export interface StationSource {
  /** `station.file`; absent = embedded default. */
  file?: string | undefined;
  profilesDir?: string | undefined;
  seats: readonly string[];
  bins: readonly string[];
}

/** Reads the profiles (a bad one stops the start) and the station file, or builds the default. */
export async function loadStation(src: StationSource): Promise<LoadedStation> {
  const profiles = await loadProfiles(src.profilesDir ?? DEFAULT_PROFILES_DIR);
  if (src.file === undefined) {
    return { source: null, definition: defaultStation(src.seats, src.bins), profiles };
  }
  let text: string;
  try {
    text = await readFile(src.file, "utf8");
  } catch (e) {
    throw stationError(src.file, [{ path: "(root)", message: `cannot be read: ${(e as Error).message}` }]);
  }
  return { source: src.file, definition: parseStationText(src.file, text, profiles), profiles };
}
