/**
 * `pps-edge diag FILE`: one tar.gz for a support ticket. It collects one text per archive file: the
 * configuration with its secrets redacted (log.ts `redactSecrets`, the log's own list; sync/redact.ts
 * for a broker URL's password), versions, the station's devices and their firmware profiles, the
 * running agent's `/readyz` (device health, outbox, broker), the database's outbox counts and
 * `PRAGMA integrity_check`, and the journal's last lines. Read-only: it works on a stopped station,
 * beside a running agent and on a damaged database; every part that cannot be had says why instead: a
 * diagnosis must come out of a box that is in trouble.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { request as httpGet } from "node:http";
import { request as httpsGet } from "node:https";
import { arch, release, type } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { Command } from "commander";
import { stringify } from "yaml";
import type { Config } from "../../config/config.schema.js";
import { VERSION } from "../../version.js";
import { type Cli, loadCliConfig } from "./context.js";

const DIAG_HELP = `
The archive holds one folder of text files: versions.txt (pps-edge, package, node, sqlite, OS),
config.yaml (the configuration in effect, secrets redacted), devices.txt (the station's devices and
their firmware profiles), readyz.txt (the running agent's /readyz: device health, outbox, broker; or
that it is not running), database.txt (its size, the file and its -wal; outbox and dead-letter counts;
PRAGMA integrity_check) and journal.txt (the last 500 lines of journalctl -u pps-edge, where there is a
journal). Run it as root (sudo pps-edge diag /tmp/diag.tar.gz): it reads the data folder and the
journal, which the service's user sees only in the systemd-journal group.`;

export function defineDiag(cli: Cli): Command {
  return new Command("diag")
    .description(
      "write one archive (tar.gz) of what support needs: config without secrets, versions, health, logs",
    )
    .argument("<file>", "the archive to write, e.g. /tmp/pps-edge-diag.tar.gz (a new file)")
    .addHelpText("after", DIAG_HELP)
    .action(async (file: string, _opts, cmd: Command) => {
      const { config } = loadCliConfig(cmd, cli.io);
      const target = resolve(file);
      if (existsSync(target)) throw new Error(`${target} exists: name a new file`);
      if (!existsSync(dirname(target)))
        throw new Error(`cannot write ${target}: the folder ${dirname(target)} does not exist`);
      const { fileStamp } = await import("../../db/backup.js");
      const now = new Date();
      const files = await diagnosis(config, `pps-edge-diag-${fileStamp(now)}`);
      const partial = `${target}.partial`;
      try {
        writeFileSync(partial, await tarGz(files, now.getTime()));
        renameSync(partial, target);
      } catch (e) {
        throw new Error(`cannot write ${target}: ${e instanceof Error ? e.message : String(e)}`);
      }
      cli.io.out(`wrote ${target}:`);
      for (const f of files)
        cli.io.out(`  ${f.name} (${Buffer.byteLength(f.text)} bytes): ${f.text.split("\n")[0]}`);
    });
}

const run = promisify(execFile);
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The configuration in effect, secrets redacted, broker URLs without their password. */
async function redactedConfig(config: Config): Promise<string> {
  // the logger's redaction list and the URL redaction load only when the command runs
  const [{ redactSecrets }, { redact }] = await Promise.all([
    import("../../log.js"),
    import("../../sync/redact.js"),
  ]);
  const strings = (v: unknown): unknown =>
    typeof v === "string"
      ? redact(v)
      : Array.isArray(v)
        ? v.map(strings)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strings(x)]))
          : v;
  return `# the configuration in effect (file and PPS_EDGE_ variables), secrets redacted\n${stringify(strings(redactSecrets(config)))}`;
}

async function packageVersion(): Promise<string> {
  try {
    // dpkg-query's own field syntax, not a template
    const format = "$" + "{Version}";
    return (await run("dpkg-query", ["-W", "-f", format, "pps-edge"], { timeout: 5000 })).stdout.trim();
  } catch {
    return "not installed from the Debian package";
  }
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync("/etc/os-release", "utf8"));
    return `${pretty?.[1] ?? "unknown"} (${type()} ${release()} ${arch()})`;
  } catch {
    return `${type()} ${release()} ${arch()}`;
  }
}

export async function versions(sqliteVersion: string): Promise<string> {
  return [
    `pps-edge ${VERSION}`,
    `package ${await packageVersion()}`,
    `node ${process.version}`,
    `sqlite ${sqliteVersion}`,
    `os ${osName()}`,
    "",
  ].join("\n");
}

/** The station's devices with the firmware profile each uses (the station file, or the simulated default). */
export async function profilesInUse(config: Config): Promise<string> {
  const { loadStationOrExplain } = await import("../start-failures.js");
  try {
    const { source, definition, profiles } = await loadStationOrExplain(config);
    const lines = [`station file: ${source ?? "none (the simulated default station)"}`];
    for (const d of definition.devices) {
      const p = profiles.get(d.profile);
      const what = p ? `${p.vendor} ${p.model}, profile version ${p.profileVersion}` : "built in";
      lines.push(`${d.id}\t${d.kind}\t${d.profile} (${what})${d.seat ? `\tseat ${d.seat}` : ""}`);
    }
    return `${lines.join("\n")}\n`;
  } catch (e) {
    return `the station file or profiles cannot be loaded: ${why(e)}\n`;
  }
}

/** The running agent's /readyz (device health, outbox, broker), or why there is none. */
export async function readiness(config: Config): Promise<string> {
  const wildcard = ["0.0.0.0", "::", ""].includes(config.http.host);
  const host = wildcard ? "127.0.0.1" : config.http.host;
  const tls = config.http.tls?.certFile !== undefined;
  const url = `${tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${config.http.port}/readyz`;
  const get = tls ? httpsGet : httpGet;
  return new Promise((done) => {
    // the station's own certificate: checked by the station's clients, not by its own diagnosis
    const req = get(url, { timeout: 3000, rejectUnauthorized: false }, (res) => {
      let body = "";
      res.on("data", (d) => {
        body += String(d);
      });
      res.on("end", () => done(`GET ${url}: ${res.statusCode}\n${body}\n`));
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 3 s")));
    req.on("error", (e) => done(`the agent is not running (GET ${url}: ${why(e)})\n`));
    req.end();
  });
}

/** The last lines of the service's journal, or why there are none. */
export async function journal(lines = 500): Promise<string> {
  try {
    const args = ["-u", "pps-edge", "-n", String(lines), "--no-pager", "-o", "short-iso"];
    const { stdout } = await run("journalctl", args, { timeout: 15_000, maxBuffer: 16 << 20 });
    return stdout;
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === "ENOENT"
      ? "none: journalctl is not available here (not under systemd)\n"
      : `none: journalctl -u pps-edge failed: ${why(e)}\n`;
  }
}

/** The database's outbox counts and integrity, read-only (beside a running agent too). */
export async function databaseReport(config: Config): Promise<{ text: string; sqlite: string }> {
  const { DB_FILE } = await import("../../db/open.js");
  const path = join(resolve(config.dataDir), DB_FILE);
  if (!existsSync(path)) return { text: `no database at ${path}\n`, sqlite: "unknown" };
  const { databaseSummary } = await import("../../db/database-summary.js");
  try {
    const s = databaseSummary(path, { site: config.site, ppsId: config.ppsId });
    const { powerLossWarning } = await import("../../services/status/agent-status.js");
    const durability = config.db.powerSafe
      ? `db.synchronous ${config.db.synchronous}: an acknowledged change survives power loss`
      : powerLossWarning(config.db.synchronous);
    const lines = [
      databaseSize(path),
      `migrations applied ${s.migrations}`,
      `outbox undelivered ${s.undelivered}`,
      `outbox dead letters ${s.dead}`,
      ...s.webhooks.map((w) => {
        const state = w.enabled ? "enabled" : `DISABLED (${w.disabledReason ?? "?"})`;
        const lag =
          w.oldestWanted === undefined ? 0 : Math.max(0, Math.round((Date.now() - w.oldestWanted) / 1000));
        const failing =
          w.attempts > 0 ? `, failing: ${w.attempts} attempts, ${w.lastError ?? w.lastStatus}` : "";
        return `webhook ${w.id} ${state}: delivered to seq ${w.deliveredSeq}, lag ${lag} s, last status ${w.lastStatus ?? "-"}${failing}`;
      }),
      `PRAGMA integrity_check: ${s.problems.length === 0 ? "ok" : s.problems.join("\n  ")}`,
      `durability: ${durability}`,
      "",
    ];
    return { text: lines.join("\n"), sqlite: s.sqliteVersion };
  } catch (e) {
    return { text: `the database ${path} cannot be read: ${why(e)}\n`, sqlite: "unknown" };
  }
}

/**
 * The database's size: the file and its -wal together, as both are the database in WAL mode
 * (docs/architecture.md#durability-and-limits): what was written since the last checkpoint is only in
 * the -wal, so the file alone can read 4096 bytes on a station holding megabytes.
 */
function databaseSize(path: string): string {
  const file = statSync(path).size;
  const wal = existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : null;
  const parts = wal === null ? `file ${file}, no -wal` : `file ${file}, -wal ${wal}`;
  return `database ${path}: ${file + (wal ?? 0)} bytes (${parts})`;
}

/** Every file of the archive, under one folder named after the time. */
export async function diagnosis(config: Config, folder: string): Promise<ArchiveFile[]> {
  const [db, profiles, ready, log] = await Promise.all([
    databaseReport(config),
    profilesInUse(config),
    readiness(config),
    journal(),
  ]);
  return [
    { name: `${folder}/versions.txt`, text: await versions(db.sqlite) },
    { name: `${folder}/config.yaml`, text: await redactedConfig(config) },
    { name: `${folder}/devices.txt`, text: profiles },
    { name: `${folder}/readyz.txt`, text: ready },
    { name: `${folder}/database.txt`, text: db.text },
    { name: `${folder}/journal.txt`, text: log },
  ];
}

/**
 * The `pps-edge diag` archive: a tar.gz of a few text files, written with node:zlib and the ustar
 * header of POSIX.1-1988 (pubs.opengroup.org, "pax": ustar Interchange Format) rather than the
 * system's `tar`: no temporary folder, no dependence on what the box has installed, and every file is
 * small and made in memory. `tar -xzf` (GNU or BSD) reads it.
 */

export interface ArchiveFile {
  /** The path inside the archive (under 100 bytes). */
  name: string;
  text: string;
}

const BLOCK = 512;

/** An octal field of `width` bytes: digits, then NUL. */
function octal(header: Buffer, at: number, width: number, value: number): void {
  header.write(`${value.toString(8).padStart(width - 1, "0")}\0`, at, width, "ascii");
}

function header(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`archive path too long: ${name}`);
  h.write(name, 0, 100, "utf8");
  octal(h, 100, 8, 0o644);
  octal(h, 108, 8, 0); // uid, gid: root; tar extracts as the user who runs it
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, Math.floor(mtime / 1000));
  h.write("0", 156, 1, "ascii"); // a regular file
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  // the checksum counts its own field as eight spaces
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

/** The files as one gzip-compressed tar archive. */
async function tarGz(files: readonly ArchiveFile[], mtime: number): Promise<Buffer> {
  const { gzipSync } = await import("node:zlib");
  const parts: Buffer[] = [];
  for (const f of files) {
    const body = Buffer.from(f.text, "utf8");
    parts.push(
      header(f.name, body.length, mtime),
      body,
      Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK),
    );
  }
  parts.push(Buffer.alloc(2 * BLOCK)); // the end of the archive: two zero blocks
  return gzipSync(Buffer.concat(parts));
}
