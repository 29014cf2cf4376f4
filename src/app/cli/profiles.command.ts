/**
 * `pps-edge profiles [DIR]`: the device drivers the agent has and what each supports, then the firmware
 * profiles of a folder with the driver each uses. For the maintainer who adds a controller model (a
 * profile file) and wants to see it understood before a station file names it; a bad profile is
 * refused here as at start, naming the file, the path and the reason.
 */
import { Command } from "commander";
import type { RegisteredDriver } from "../../devices/drivers/registry.js";
import type { FirmwareProfile } from "../../devices/profiles/firmware-profile.schema.js";
import { type Cli, loadCliConfig } from "./context.js";

export function defineProfiles(cli: Cli): Command {
  return new Command("profiles")
    .description("list the device drivers, and the firmware profiles of a folder with the driver of each")
    .argument("[dir]", "a folder of profiles (default: devices.profilesDir, else the shipped ones)")
    .action(async (dir: string | undefined, _o, cmd: Command) => {
      const folder = dir ?? loadCliConfig(cmd, cli.io).config.devices.profilesDir;
      cli.code = await profilesCommand(folder, cli.io);
    });
}

/** The drivers and the profile reader, loaded only when the command runs (the rest of the CLI starts faster). */
async function loadDevices() {
  const [registry, kinds, load, stationFile] = await Promise.all([
    import("../../devices/drivers/registry.js"),
    import("../../devices/profiles/profile-kinds.js"),
    import("../../devices/profiles/load-profiles.js"),
    import("../../devices/station-file/station-file.js"),
  ]);
  return {
    drivers: registry.drivers,
    driverOfProfile: registry.driverOfProfile,
    PROFILE_KINDS: kinds.PROFILE_KINDS,
    protocolOf: kinds.protocolOf,
    loadProfiles: load.loadProfiles,
    DEFAULT_PROFILES_DIR: stationFile.DEFAULT_PROFILES_DIR,
  };
}

type Devices = Awaited<ReturnType<typeof loadDevices>>;

/** Pads every column but the last to its widest cell. */
function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const pad = (row: string[]) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)));
  return rows.map((row) => `  ${pad(row).join("  ")}`.trimEnd());
}

function protocols(dev: Devices, d: RegisteredDriver): string {
  if (d.profile === null) return "any profile, or none";
  return `${dev.PROFILE_KINDS[d.profile.kind].variant} ${d.profile.protocols.join("|")}`;
}

/** One line per driver: name, kinds, transports, the profiles it reads, features. */
function driverLines(dev: Devices): string[] {
  const rows = dev.drivers.map((d) => [
    d.name,
    d.kinds.join(","),
    d.transports.join(","),
    protocols(dev, d),
    d.features.join("; "),
  ]);
  return table([["DRIVER", "KINDS", "TRANSPORTS", "READS", "FEATURES"], ...rows]);
}

/** What a light controller model shows, from its profile (colours, blink, digits, buttons). */
function capabilities(p: FirmwareProfile): string {
  if (p.kind !== "ptl-controller") return "";
  const c = p.ptl.capabilities;
  const colours = Object.keys(c.colors);
  return [
    colours.length > 0 ? `colours ${colours.join(",")}` : "no colours",
    c.blink && c.blink.length > 0 ? `blink ${c.blink.join(",")}` : "no blink",
    c.digits > 0 ? `${c.digits} digits` : "no quantity",
    c.buttons.length > 0 ? `buttons ${c.buttons.join(",")}` : "no buttons",
  ].join("; ");
}

/** One line per profile: id, kind, protocol, the driver that reads it, model, what it shows. */
function profileLines(dev: Devices, profiles: ReadonlyMap<string, FirmwareProfile>): string[] {
  const rows = [...profiles.values()].map((p) => [
    p.profileId,
    p.kind,
    dev.protocolOf(p),
    dev.driverOfProfile(p)?.name ?? "none (simulated only)",
    [`${p.vendor} ${p.model}`, capabilities(p)].filter((s) => s !== "").join(" - "),
  ]);
  return table([["PROFILE", "KIND", "PROTOCOL", "DRIVER", "MODEL"], ...rows]);
}

/** Prints the drivers and the profiles of `dir` (default: the profiles shipped with the agent). */
export async function profilesCommand(
  dir: string | undefined,
  io: { out(s: string): void },
): Promise<number> {
  const dev = await loadDevices();
  const folder = dir ?? dev.DEFAULT_PROFILES_DIR;
  const profiles = await dev.loadProfiles(folder);
  io.out(`Device drivers (${dev.drivers.length}):`);
  for (const line of driverLines(dev)) io.out(line);
  io.out("");
  io.out(`Firmware profiles in ${folder} (${profiles.size}):`);
  for (const line of profileLines(dev, profiles)) io.out(line);
  return 0;
}
