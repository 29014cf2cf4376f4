/**
 * `pps-edge sim …`: the simulated devices of a running agent, driven over its station API. The calls
 * and what is printed are sim.cli.ts's; here are the arguments each action takes.
 */
import { Argument, Command, InvalidArgumentError } from "commander";
import { type Cli, loadCliConfig } from "./context.js";
import type { SimAction, SimCall, simCalls } from "./sim.cli.js";

function quantity(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("a whole number of pieces");
  return Number(value);
}

export function defineSim(cli: Cli): Command {
  const sim = new Command("sim")
    .description("drive the simulated devices of a running agent (over its station API)")
    .addHelpText(
      "after",
      "\nSigns in with clientSecret and adminPassword from the config, or the credentials file of the first start.\nExit code 3: the station engine refused the action (the reason is printed).",
    );
  const send = async (cmd: Command, action: SimAction, call: (calls: typeof simCalls) => SimCall) => {
    const { config } = loadCliConfig(cmd, cli.io);
    const sim = await import("./sim.cli.js");
    cli.code = await sim.simCommand(config, action, call(sim.simCalls), cli.io);
  };
  sim
    .command("scan")
    .description("a scan on the seat's simulated scanner")
    .argument("<seat>")
    .argument("<barcode>")
    .action((seat: string, barcode: string, _o, cmd: Command) =>
      send(cmd, "scan", (c) => c.scan(seat, barcode)),
    );
  sim
    .command("press")
    .description("the bin's button")
    .argument("<bin>", "the bin (ppsBinId)")
    .addArgument(new Argument("[button]").choices(["confirm", "shortage"]).default("confirm"))
    .action((bin: string, button: "confirm" | "shortage", _o, cmd: Command) =>
      send(cmd, "press", (c) => c.press(bin, button)),
    );
  sim
    .command("sensor")
    .description("the bin's beam blocked (on) or clear (off)")
    .argument("<bin>", "the bin (ppsBinId)")
    .addArgument(new Argument("<state>").choices(["on", "off"]))
    .action((bin: string, state: string, _o, cmd: Command) =>
      send(cmd, "sensor", (c) => c.sensor(bin, state === "on")),
    );
  sim
    .command("keyin")
    .description("a quantity keyed in at the seat")
    .argument("<seat>")
    .argument("<quantity>", "pieces", quantity)
    .action((seat: string, n: number, _o, cmd: Command) => send(cmd, "keyin", (c) => c.keyin(seat, n)));
  sim
    .command("lights")
    .description("what the lights show")
    .action((_o, cmd: Command) => send(cmd, "lights", (c) => c.lights()));
  sim
    .command("seats")
    .description("each seat's step")
    .action((_o, cmd: Command) => send(cmd, "seats", (c) => c.seats()));
  return sim;
}
