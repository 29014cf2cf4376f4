#!/usr/bin/env node
// `npm run package`: builds pps-edge_<version>_<arch>.deb with dpkg-deb alone (docs/operations.md#install-on-a-station). Options (after `npm run package --`):
//   --version V     package version (default: the newest entry of packaging/changelog, package.json's
//                   version with a Debian revision; an upgrade test builds a newer one)
//   --out DIR       where the .deb is written (default: the repository root)
//   --dist DIR      an already compiled agent to package (default: `npm run build` into dist/)
//   --compress C    xz (default, as Debian's own packages), zstd, gzip or none (fastest, for tests)
// The agent runs on the system's Node (Depends: nodejs of the major it was built with; docs/operations.md#node says
// why), with the production node_modules of this machine: their native modules are built for this Node.
// Besides the tree (debian/stage.mjs) it writes what Debian asks of a package (docs/operations.md#licences):
// the copyright file, the changelog, the lintian overrides with their reasons, the manual page.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build, ROOT } from "./build.mjs";
import { installedChangelog, readChangelog, upstreamOf } from "./debian/changelog.mjs";
import { copyrightFile } from "./debian/copyright.mjs";
import { filesUnder, releaseDir, stageTree } from "./debian/stage.mjs";

const DEBIAN = join(ROOT, "scripts", "debian");
const ARCH = { x64: "amd64", arm64: "arm64", arm: "armhf", ia32: "i386" };
const LEVEL = { xz: "6", zstd: "19", gzip: "9", none: "0" };

/** The Node runtime the package depends on: the major it was built and tested with (native module ABI). */
export function nodeDependency(version = process.versions.node) {
  const major = Number(version.split(".")[0]);
  return `nodejs (>= ${major}), nodejs (<< ${major + 1})`;
}

/** Folds text into a control file's extended description lines (at most 79 characters each). */
function fold(text, width = 78) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => ` ${l}`).join("\n");
}

function control({ version, arch, installedKb, maintainer }) {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return `Package: pps-edge
Version: ${version}
Architecture: ${arch}
Maintainer: ${maintainer}
Installed-Size: ${installedKb}
Depends: ${nodeDependency()}, init-system-helpers (>= 1.54~), libc6, libstdc++6, libgcc-s1, libudev1, libusb-1.0-0, fonts-dejavu-core
Suggests: cups-client
Section: misc
Priority: optional
Description: ${pkg.description.split(":")[0]}
${fold(pkg.description)}
 .
${fold(
  "The agent runs as the systemd service pps-edge (user pps-edge) with its configuration in " +
    "/etc/pps-edge/pps-edge.yaml and its database in /var/lib/pps-edge; /usr/bin/pps-edge is its command line.",
)}
`;
}

/** The manual page of /usr/bin/pps-edge: the staged release's own --help, so the two never disagree. */
function manPage(dist, version) {
  const help = execFileSync(process.execPath, [join(dist, "app", "main.js"), "--help"], {
    encoding: "utf8",
    env: { ...process.env, COLUMNS: "78" },
  });
  const esc = (t) => t.replaceAll("\\", "\\e").replace(/^([.'])/gm, "\\&$1");
  return `.TH PPS-EDGE 1 "" "pps-edge ${version}" "pps-edge"
.SH NAME
pps-edge \\- edge agent of a warehouse pick/put station
.SH SYNOPSIS
.B pps-edge
[\\fIoptions\\fR] \\fIcommand\\fR
.SH DESCRIPTION
The command line of the pps-edge agent, with the station's configuration file
/etc/pps-edge/pps-edge.yaml and data folder /var/lib/pps-edge. Run it as the
service's user: \\fBsudo \\-u pps\\-edge pps\\-edge status\\fR.
.PP
.nf
${esc(help.trimEnd())}
.fi
.SH FILES
/etc/pps-edge/pps-edge.yaml, /etc/pps-edge/pps-edge.env, /var/lib/pps-edge,
/opt/pps-edge/current/docs (the manual: operations.md, cli.md, configuration.md)
`;
}

/** What Debian asks beside the tree: copyright, changelog, lintian overrides, the manual page. */
function writeDebianFiles(stage, { version, packageDirs }) {
  const doc = join(stage, "usr/share/doc/pps-edge");
  mkdirSync(doc, { recursive: true });
  const copyright = copyrightFile({
    root: ROOT,
    nodeModules: join(stage, releaseDir(version), "node_modules"),
    packageDirs,
    prefix: `${releaseDir(version)}/node_modules`,
  });
  writeFileSync(join(doc, "copyright"), copyright.text);
  const changelog = installedChangelog(ROOT, version);
  writeFileSync(join(doc, changelog.name), changelog.bytes);
  const overrides = join(stage, "usr/share/lintian/overrides");
  mkdirSync(overrides, { recursive: true });
  writeFileSync(
    join(overrides, "pps-edge"),
    readFileSync(join(ROOT, "packaging", "pps-edge.lintian-overrides")),
  );
  const man = join(stage, "usr/share/man/man1");
  mkdirSync(man, { recursive: true });
  writeFileSync(
    join(man, "pps-edge.1.gz"),
    gzipSync(manPage(join(stage, releaseDir(version), "dist"), version), { level: 9 }),
  );
  return { maintainer: changelog.maintainer, packages: copyright.packages };
}

/** A maintainer script with the shared functions (common.sh) put in at its #COMMON# line, and its version. */
export function maintainerScript(name, version) {
  const common = readFileSync(join(DEBIAN, "common.sh"), "utf8");
  return readFileSync(join(DEBIAN, name), "utf8")
    .replace("#COMMON#\n", common)
    .replaceAll("#VERSION#", version);
}

function writeControl(stage, version, maintainer) {
  const dir = join(stage, "DEBIAN");
  mkdirSync(dir, { recursive: true });
  // md5sums lists regular files only (dpkg checks no links)
  const files = filesUnder(stage).filter(
    (f) => !f.startsWith("DEBIAN/") && !lstatSync(join(stage, f)).isSymbolicLink(),
  );
  const installedKb = Math.ceil(files.reduce((n, f) => n + statSync(join(stage, f)).size, 0) / 1024);
  const arch = ARCH[process.arch] ?? process.arch;
  writeFileSync(join(dir, "control"), control({ version, arch, installedKb, maintainer }));
  writeFileSync(join(dir, "conffiles"), "/etc/pps-edge/pps-edge.yaml\n");
  const sums = files
    .filter((f) => !f.startsWith("etc/"))
    .map(
      (f) =>
        `${createHash("md5")
          .update(readFileSync(join(stage, f)))
          .digest("hex")}  ${f}`,
    );
  writeFileSync(join(dir, "md5sums"), `${sums.join("\n")}\n`);
  for (const s of ["preinst", "postinst", "prerm", "postrm"]) {
    writeFileSync(join(dir, s), maintainerScript(s, version));
    chmodSync(join(dir, s), 0o755);
  }
  return arch;
}

/** Builds the package; returns the .deb's path and size. */
export async function buildPackage(opts = {}) {
  const started = Date.now();
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const { entries } = readChangelog(ROOT);
  if (upstreamOf(entries[0].version) !== pkg.version) {
    throw new Error(
      `packaging/changelog's newest entry is ${entries[0].version}, package.json's version ${pkg.version}`,
    );
  }
  const version = opts.version ?? entries[0].version;
  if (!/^[0-9][A-Za-z0-9.+~-]*$/.test(version)) throw new Error(`not a Debian version: ${version}`);
  const compress = opts.compress ?? "xz";
  if (!(compress in LEVEL)) throw new Error(`--compress: xz, zstd, gzip or none, not ${compress}`);
  const dist = opts.dist ? resolve(opts.dist) : join(ROOT, "dist");
  if (!opts.dist && build() !== 0) throw new Error("the build failed (npm run build)");
  const stage = mkdtempSync(join(tmpdir(), "pps-edge-deb-"));
  try {
    chmodSync(stage, 0o755);
    const { packageDirs } = await stageTree(ROOT, stage, dist, version);
    // the upgrade guard the postinst runs (docs/operations.md#self-healing-upgrade)
    mkdirSync(join(stage, "usr/lib/pps-edge"), { recursive: true });
    writeFileSync(join(stage, "usr/lib/pps-edge/upgrade-guard"), maintainerScript("upgrade-guard", version));
    chmodSync(join(stage, "usr/lib/pps-edge/upgrade-guard"), 0o755);
    const { maintainer } = writeDebianFiles(stage, { version, packageDirs });
    const arch = writeControl(stage, version, maintainer);
    const out = resolve(opts.out ?? ROOT);
    mkdirSync(out, { recursive: true });
    const deb = join(out, `pps-edge_${version}_${arch}.deb`);
    execFileSync(
      "dpkg-deb",
      ["--root-owner-group", `-Z${compress}`, `-z${LEVEL[compress]}`, "--build", stage, deb],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    return { deb, bytes: statSync(deb).size, seconds: (Date.now() - started) / 1000 };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      version: { type: "string" },
      out: { type: "string" },
      dist: { type: "string" },
      compress: { type: "string" },
    },
  });
  buildPackage(values).then(
    (r) => console.log(`${r.deb}: ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(0)} s`),
    (e) => {
      console.error(`package: ${e.message}`);
      process.exitCode = 1;
    },
  );
}
