#!/usr/bin/env node
// `npm run package`: builds pps-edge_<version>_<arch>.deb with dpkg-deb alone (docs/operations.md#install-on-a-station). Options (after `npm run package --`):
//   --version V     package version (default: package.json's; an upgrade test builds a newer one)
//   --out DIR       where the .deb is written (default: the repository root)
//   --dist DIR      an already compiled agent to package (default: `npm run build` into dist/)
//   --compress C    xz (default, as Debian's own packages), zstd, gzip or none (fastest, for tests)
// The agent runs on the system's Node (Depends: nodejs of the major it was built with; docs/operations.md#node says
// why), with the production node_modules of this machine: their native modules are built for this Node.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build, ROOT } from "./build.mjs";
import { filesUnder, stageTree } from "./debian/stage.mjs";

const DEBIAN = join(ROOT, "scripts", "debian");
const ARCH = { x64: "amd64", arm64: "arm64", arm: "armhf", ia32: "i386" };
const LEVEL = { xz: "6", zstd: "19", gzip: "9", none: "0" };

/** The Node runtime the package depends on: the major it was built and tested with (native module ABI). */
export function nodeDependency(version = process.versions.node) {
  const major = Number(version.split(".")[0]);
  return `nodejs (>= ${major}), nodejs (<< ${major + 1})`;
}

function control({ version, arch, installedKb }) {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return `Package: pps-edge
Version: ${version}
Architecture: ${arch}
Maintainer: pps-edge maintainers <pps-edge@localhost>
Installed-Size: ${installedKb}
Depends: ${nodeDependency()}, libc6, libstdc++6, libgcc-s1, libudev1, libusb-1.0-0
Section: misc
Priority: optional
Description: ${pkg.description.split(":")[0]}
 ${pkg.description}
 .
 The agent runs as the systemd service pps-edge (user pps-edge) with its configuration in
 /etc/pps-edge/pps-edge.yaml and its database in /var/lib/pps-edge; /usr/bin/pps-edge is its command line.
`;
}

/** A maintainer script with the shared functions (common.sh) put in at its #COMMON# line. */
function maintainerScript(name) {
  const common = readFileSync(join(DEBIAN, "common.sh"), "utf8");
  return readFileSync(join(DEBIAN, name), "utf8").replace("#COMMON#\n", common);
}

function writeControl(stage, version) {
  const dir = join(stage, "DEBIAN");
  mkdirSync(dir, { recursive: true });
  const files = filesUnder(stage).filter((f) => !f.startsWith("DEBIAN/"));
  const installedKb = Math.ceil(files.reduce((n, f) => n + statSync(join(stage, f)).size, 0) / 1024);
  const arch = ARCH[process.arch] ?? process.arch;
  writeFileSync(join(dir, "control"), control({ version, arch, installedKb }));
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
  for (const s of ["postinst", "prerm", "postrm"]) {
    writeFileSync(join(dir, s), maintainerScript(s));
    chmodSync(join(dir, s), 0o755);
  }
  return arch;
}

/** Builds the package; returns the .deb's path and size. */
export async function buildPackage(opts = {}) {
  const started = Date.now();
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const version = opts.version ?? pkg.version;
  if (!/^[0-9][A-Za-z0-9.+~-]*$/.test(version)) throw new Error(`not a Debian version: ${version}`);
  const compress = opts.compress ?? "xz";
  if (!(compress in LEVEL)) throw new Error(`--compress: xz, zstd, gzip or none, not ${compress}`);
  const dist = opts.dist ? resolve(opts.dist) : join(ROOT, "dist");
  if (!opts.dist && build() !== 0) throw new Error("the build failed (npm run build)");
  const stage = mkdtempSync(join(tmpdir(), "pps-edge-deb-"));
  try {
    chmodSync(stage, 0o755);
    await stageTree(ROOT, stage, dist);
    const arch = writeControl(stage, version);
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
