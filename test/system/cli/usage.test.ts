/** The command line's own rules: --help on every command, --version, usage errors, completion. */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { runCli as run } from "../../support/cli.js";

describe("pps-edge --help, --version and usage errors", () => {
  /** Every command path of the program, from its own help. */
  async function commands(path: string[] = []): Promise<string[][]> {
    const help = (await run([...path, "--help"], {})).out;
    const section = help.split("\nCommands:\n")[1] ?? "";
    const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1] as string);
    const below = await Promise.all(names.filter((n) => n !== "help").map((n) => commands([...path, n])));
    return [path, ...below.flat()];
  }

  it("answers --help on every command with its usage and does nothing else", async () => {
    const dir = tempDir();
    const all = await commands();
    expect(all.map((p) => p.join(" "))).toEqual(
      expect.arrayContaining([
        "",
        "run",
        "user",
        "user add",
        "user reset-password",
        "sim",
        "sim scan",
        "profiles",
        "check",
      ]),
    );
    for (const path of all) {
      const res = await run([...path, "--help"], { PPS_EDGE_DATA_DIR: dir }, "a long enough password\n");
      expect(res.code, path.join(" ")).toBe(0);
      expect(res.out).toContain(`Usage: ${["pps-edge", ...path].join(" ")}`);
      expect(res.err).toBe("");
    }
    // `user add --init --help` created no database, `run --help` started nothing
    expect(readdirSync(dir)).toEqual([]);
    expect((await run(["user", "add", "--help", "--init", "alice"], { PPS_EDGE_DATA_DIR: dir })).code).toBe(
      0,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("prints the version, and help for a command", async () => {
    const { VERSION } = await import("../../../src/version.js");
    expect(await run(["--version"], {})).toEqual({ code: 0, out: VERSION, err: "" });
    const help = await run(["help", "user"], {});
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: pps-edge user");
    expect(help.out).toContain("reset-password");
  });

  it("refuses unknown options, missing and bad arguments with exit code 2", async () => {
    const env = { PPS_EDGE_DATA_DIR: tempDir() };
    const option = await run(["user", "list", "--int"], env);
    expect(option).toMatchObject({ code: 2 });
    expect(option.err).toContain("unknown option '--int'");
    expect(option.err).toContain("(Did you mean --init?)");
    expect((await run(["run", "--port", "1"], env)).code).toBe(2);
    expect((await run(["sim", "sensor", "1", "maybe"], env)).err).toContain("Allowed choices are on, off");
    expect((await run(["sim", "keyin", "front", "two"], env)).code).toBe(2);
    expect((await run(["run", "extra"], env)).code).toBe(2);
    const bare = await run([], env);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain("Usage: pps-edge");
  });
});

describe("pps-edge completion", () => {
  /** What bash completes for the words typed so far (the last one being completed). */
  function complete(script: string, words: string[]): string[] {
    const typed = words.map((w) => `'${w}'`).join(" ");
    const r = spawnSync(
      "bash",
      [
        "-c",
        `${script}\nCOMP_WORDS=(pps-edge ${typed}); COMP_CWORD=${words.length}; _pps_edge; echo "\${COMPREPLY[*]}"`,
      ],
      { encoding: "utf8" },
    );
    expect(r.stderr).toBe("");
    return r.stdout.trim().split(/\s+/);
  }

  it("completes commands, subcommands, options and choices from the command tree", async () => {
    const res = await run(["completion", "bash"], {});
    expect(res.code).toBe(0);
    expect(res.out).toContain("complete -o default -F _pps_edge pps-edge");
    expect(complete(res.out, [""])).toEqual(
      expect.arrayContaining([
        "run",
        "user",
        "sim",
        "profiles",
        "completion",
        "help",
        "--config",
        "--version",
      ]),
    );
    expect(complete(res.out, ["us"])).toEqual(["user"]);
    expect(complete(res.out, ["--config", "/etc/pps-edge.yaml", "user", "re"])).toEqual([
      "reset-password",
      "remove",
    ]);
    expect(complete(res.out, ["user", "add", "--i"])).toEqual(["--init"]);
    expect(complete(res.out, ["sim", "sensor", "1", "o"])).toEqual(["on", "off"]);
    const zsh = await run(["completion", "zsh"], {});
    expect(zsh.out).toMatch(/^# pps-edge completion \(zsh.*\nautoload -U \+X bashcompinit && bashcompinit\n/);
    expect((await run(["completion", "fish"], {})).code).toBe(2);
  });
});
