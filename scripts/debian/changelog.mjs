// The package's changelog (docs/operations.md#licences): packaging/changelog, in Debian's changelog format
// (Debian policy 4.4), its newest entry naming the package's version (package.json's version and a Debian
// revision, e.g. 0.1.0-1). Installed gzip-compressed as /usr/share/doc/pps-edge/changelog.Debian.gz (a
// version with a revision; changelog.gz for one without, a native package). Its trailer names the
// maintainer, which the control file's Maintainer: field repeats.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const HEADER = /^(\S+) \(([^)]+)\) [^;]+; urgency=\w+$/;
const TRAILER = /^ -- (.+ <[^>]+>) {2}(.+)$/;

/** The entries of a changelog text, newest first: package, version, maintainer, date. */
export function parseChangelog(text) {
  const entries = [];
  for (const line of text.split("\n")) {
    const h = HEADER.exec(line);
    if (h) entries.push({ package: h[1], version: h[2] });
    const t = TRAILER.exec(line);
    if (t && entries.length > 0) Object.assign(entries[entries.length - 1], { maintainer: t[1], date: t[2] });
  }
  if (entries.length === 0 || entries.some((e) => !e.maintainer)) {
    throw new Error("packaging/changelog: no entry, or an entry without its ' -- name <mail>  date' line");
  }
  return entries;
}

/** The upstream part of a Debian version (before the last '-'): what package.json's version must be. */
export const upstreamOf = (version) =>
  version.includes("-") ? version.slice(0, version.lastIndexOf("-")) : version;

export function readChangelog(root) {
  const text = readFileSync(join(root, "packaging", "changelog"), "utf8");
  return { text, entries: parseChangelog(text) };
}

/**
 * The changelog as installed for `version`: packaging/changelog as it is when its newest entry is this
 * version, else with an entry for this build (a test's newer build) put on top. Returns the file's name
 * and its gzip bytes (no name or time in the header, so a build is reproducible).
 */
export function installedChangelog(root, version, now = new Date()) {
  const { text, entries } = readChangelog(root);
  const newest = entries[0];
  let out = text;
  if (newest.version !== version) {
    const date = now.toUTCString().replace("GMT", "+0000");
    out = `pps-edge (${version}) unstable; urgency=medium\n\n  * Built as ${version} from ${newest.version}.\n\n -- ${newest.maintainer}  ${date}\n\n${text}`;
  }
  const name = version.includes("-") ? "changelog.Debian.gz" : "changelog.gz";
  return { name, bytes: gzipSync(out, { level: 9 }), maintainer: newest.maintainer };
}
