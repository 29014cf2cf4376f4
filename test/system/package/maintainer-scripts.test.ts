/**
 * What the maintainer scripts, run as root, take from files an attacker may have shaped: they read
 * /etc/pps-edge/pps-edge.env as systemd does (KEY=VALUE lines), never as shell code
 * (scripts/debian/common.sh `load_env_file`): a passphrase with spaces is one value, and a secret
 * holding `;cmd`, `$(cmd)` or backquotes runs nothing; and they follow no symbolic link planted where
 * the data folder goes.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";

const COMMON = new URL("../../../scripts/debian/common.sh", import.meta.url).pathname;

function load(fileText: string, names: string[]): { values: string[]; dir: string } {
  const dir = tempDir();
  const file = join(dir, "pps-edge.env");
  writeFileSync(file, fileText);
  const script = `. "$1"; ENVFILE="$2"; load_env_file; shift 2; for n in "$@"; do eval "printf '%s\\n' \\"\\\${$n-<unset>}\\""; done`;
  const out = execFileSync("sh", ["-c", script, "sh", COMMON, file, ...names], {
    cwd: dir,
    encoding: "utf8",
  });
  return { values: out.split("\n").slice(0, names.length), dir };
}

describe("the service's environment file in the maintainer scripts", () => {
  it("takes values as text: spaces, quotes, comments; runs nothing", () => {
    const dir0 = tempDir();
    const marker = join(dir0, "pwned");
    const { values } = load(
      [
        "# a comment",
        "PPS_EDGE_ADMIN_PASSWORD=correct horse battery staple",
        `PPS_EDGE_CLIENT_SECRET=abc;touch ${marker}`,
        `PPS_EDGE_METRICS_TOKEN=$(touch ${marker})\`touch ${marker}\``,
        'PPS_EDGE_DATA_DIR="/srv/pps edge"',
        "PPS_EDGE_LOG_LEVEL='debug'",
        "not a pair",
        "BAD-KEY=x",
        "",
      ].join("\n"),
      [
        "PPS_EDGE_ADMIN_PASSWORD",
        "PPS_EDGE_CLIENT_SECRET",
        "PPS_EDGE_METRICS_TOKEN",
        "PPS_EDGE_DATA_DIR",
        "PPS_EDGE_LOG_LEVEL",
      ],
    );
    expect(values).toEqual([
      "correct horse battery staple",
      `abc;touch ${marker}`,
      `$(touch ${marker})\`touch ${marker}\``,
      "/srv/pps edge",
      "debug",
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("reads a last line without a newline, and nothing when the file is missing", () => {
    expect(load("PPS_EDGE_HTTP_PORT=9090", ["PPS_EDGE_HTTP_PORT"]).values).toEqual(["9090"]);
    const out = execFileSync(
      "sh",
      ["-c", '. "$1"; ENVFILE=/nonexistent/pps-edge.env; load_env_file && echo fine', "sh", COMMON],
      { encoding: "utf8" },
    );
    expect(out.trim()).toBe("fine");
  });
});

const POSTINST = new URL("../../../scripts/debian/postinst", import.meta.url).pathname;

/**
 * The postinst's folders without systemd-tmpfiles: `install -d` as root follows a symbolic link planted
 * at the data folder (or its backups) and would chown its target, so a link is refused. Run with stubs
 * for the system's commands, none of them real: only the shell's own.
 */
function makeFolders(plant: (data: string) => void): { code: number; calls: string; err: string } {
  const dir = tempDir();
  const stubs = join(dir, "bin");
  const data = join(dir, "data");
  plant(data);
  execFileSync("mkdir", [stubs]);
  const calls = join(dir, "calls");
  for (const cmd of ["getent", "install", "chgrp", "chmod", "useradd"])
    writeFileSync(join(stubs, cmd), `#!/bin/sh\necho "${cmd} $*" >> "${calls}"\n`, { mode: 0o755 });
  const functions = readFileSync(POSTINST, "utf8").split('case "$1" in')[0]?.replace("#COMMON#", "") ?? "";
  const script = `${readFileSync(COMMON, "utf8")}\n${functions}\nDATA="${data}"\nmake_user_and_folders\necho done`;
  const run = spawnSync("/bin/sh", ["-c", script], { env: { PATH: stubs }, encoding: "utf8" });
  return {
    code: run.status ?? -1,
    calls: existsSync(calls) ? readFileSync(calls, "utf8") : "",
    err: run.stderr,
  };
}

describe("the data folder made without systemd-tmpfiles", () => {
  it("is made with install -d when nothing is there", () => {
    const r = makeFolders(() => {});
    expect(r.code).toBe(0);
    expect(r.calls).toMatch(/^install -d -o pps-edge -g pps-edge -m 0750 .*\/data .*\/data\/backups$/m);
  });

  it("refuses a symbolic link at the data folder or its backups, changing nothing", () => {
    for (const plant of [
      (data: string) => symlinkSync("/etc", data),
      (data: string) => {
        execFileSync("mkdir", [data]);
        symlinkSync("/etc", join(data, "backups"));
      },
    ]) {
      const r = makeFolders(plant);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/is a symbolic link; refused/);
      expect(r.calls).not.toMatch(/^install /m);
    }
  });
});

describe("the backup the upgrade's guard restores", () => {
  it("is the file `pps-edge backup` wrote, not one of the older ones it removed", () => {
    const functions = readFileSync(POSTINST, "utf8").split('case "$1" in')[0]?.replace("#COMMON#", "") ?? "";
    const output = [
      "wrote /var/lib/pps-edge/backups/pps-edge-20261128T210000Z.db: 4096 bytes, sha256 ab12",
      "removed /var/lib/pps-edge/backups/pps-edge-20261120T080000Z.db (the folder keeps the newest 5)",
      "",
    ].join("\n");
    const run = spawnSync("/bin/sh", ["-c", `${functions}\nbackup_written`], {
      input: output,
      encoding: "utf8",
    });
    expect([run.status, run.stdout]).toEqual([0, "/var/lib/pps-edge/backups/pps-edge-20261128T210000Z.db\n"]);
    const none = spawnSync("/bin/sh", ["-c", `${functions}\nbackup_written`], {
      input: "",
      encoding: "utf8",
    });
    expect([none.status, none.stdout]).toEqual([0, ""]);
  });
});
