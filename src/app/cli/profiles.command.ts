/** `pps-edge profiles [DIR]`: the device drivers and the firmware profiles (profiles.cli.ts). */
import { Command } from "commander";
import { type Cli, loadCliConfig } from "./context.js";

export function defineProfiles(cli: Cli): Command {
  return new Command("profiles")
    .description("list the device drivers, and the firmware profiles of a folder with the driver of each")
    .argument("[dir]", "a folder of profiles (default: devices.profilesDir, else the shipped ones)")
    .action(async (dir: string | undefined, _o, cmd: Command) => {
      const folder = dir ?? loadCliConfig(cmd, cli.io).config.devices.profilesDir;
      const { profilesCommand } = await import("./profiles.cli.js");
      cli.code = await profilesCommand(folder, cli.io);
    });
}
