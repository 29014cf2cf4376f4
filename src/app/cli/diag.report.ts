/**
 * What `pps-edge diag` collects for a support ticket, one text per archive file: the configuration with
 * its secrets redacted (log.ts `redactSecrets`, the log's own list; sync/redact.ts for a broker URL's
 * password), versions, the station's devices and their firmware profiles, the running agent's
 * `/readyz` (device health, outbox, broker), the database's outbox counts and `PRAGMA integrity_check`,
 * and the journal's last lines. Every part that cannot be had says why instead: a diagnosis must come
 * out of a box that is in trouble.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { request as httpGet } from "node:http";
import { request as httpsGet } from "node:https";
import { arch, release, type } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { stringify } from "yaml";
import type { Config } from "../../config/config.schema.js";
import { redactSecrets } from "../../log.js";
import { redact } from "../../sync/redact.js";
import { VERSION } from "../../version.js";
import type { ArchiveFile } from "./diag.archive.js";

const run = promisify(execFile);
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The configuration in effect, secrets redacted, broker URLs without their password. */
export function redactedConfig(config: Config): string {
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
    const lines = [
      `database ${path}: ${statSync(path).size} bytes`,
      `migrations applied ${s.migrations}`,
      `outbox undelivered ${s.undelivered}`,
      `outbox dead letters ${s.dead}`,
      `PRAGMA integrity_check: ${s.problems.length === 0 ? "ok" : s.problems.join("\n  ")}`,
      "",
    ];
    return { text: lines.join("\n"), sqlite: s.sqliteVersion };
  } catch (e) {
    return { text: `the database ${path} cannot be read: ${why(e)}\n`, sqlite: "unknown" };
  }
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
    { name: `${folder}/config.yaml`, text: redactedConfig(config) },
    { name: `${folder}/devices.txt`, text: profiles },
    { name: `${folder}/readyz.txt`, text: ready },
    { name: `${folder}/database.txt`, text: db.text },
    { name: `${folder}/journal.txt`, text: log },
  ];
}
