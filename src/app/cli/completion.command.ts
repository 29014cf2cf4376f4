/** `pps-edge completion [bash|zsh]`: prints the shell completion script (completion.script.ts). */
import { Argument, Command } from "commander";
import { bashCompletion, zshCompletion } from "./completion.script.js";
import type { Cli } from "./context.js";

export function defineCompletion(cli: Cli): Command {
  return new Command("completion")
    .description("print the shell completion script")
    .addArgument(new Argument("[shell]").choices(["bash", "zsh"]).default("bash"))
    .addHelpText(
      "after",
      "\nbash: source <(pps-edge completion bash), or save it as /etc/bash_completion.d/pps-edge\nzsh:  source <(pps-edge completion zsh) in ~/.zshrc",
    )
    .action((shell: "bash" | "zsh", _o, cmd: Command) => {
      let root = cmd;
      while (root.parent) root = root.parent;
      cli.io.out((shell === "zsh" ? zshCompletion : bashCompletion)(root).trimEnd());
    });
}
