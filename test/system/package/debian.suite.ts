/**
 * What a Debian maintainer asks of the package (docs/operations.md#licences): lintian finds no error and
 * no warning but those packaging/pps-edge.lintian-overrides names with its reason; the copyright file
 * (DEP-5) lists every bundled npm package; the changelog; only what the agent runs under node_modules;
 * stripped, non-executable native modules that load in this Node with no build tool reachable
 * (docs/operations.md#installs-offline).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { type Debs, dpkgDeb } from "./support/debs.js";

const haveLintian = spawnSync("sh", ["-c", "command -v lintian"]).status === 0;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Package folders under a node_modules (scoped and nested too), as paths relative to it. */
function packagesUnder(nodeModules: string, base = nodeModules): string[] {
  return readdirSync(nodeModules, { withFileTypes: true }).flatMap((e) => {
    if (!e.isDirectory()) return [];
    const dir = join(nodeModules, e.name);
    if (e.name.startsWith("@")) return packagesUnder(dir, base);
    if (!existsSync(join(dir, "package.json"))) return [];
    const nested = join(dir, "node_modules");
    return [relative(base, dir), ...(existsSync(nested) ? packagesUnder(nested, base) : [])];
  });
}

export function debianSuite(built: () => Debs): void {
  let debs: Debs;
  let tree: string;
  let control: string;
  const opt = () => join(tree, "opt/pps-edge/releases", debs.older.version);

  beforeAll(() => {
    debs = built();
    tree = mkdtempSync(join(tmpdir(), "pps-edge-deb-debian-"));
    dpkgDeb("-x", debs.older.deb, tree);
    control = join(tree, "DEBIAN");
    dpkgDeb("-e", debs.older.deb, control);
  });
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  describe("what Debian asks of it", () => {
    it.skipIf(!haveLintian)(
      `lintian finds no error and no warning but the overridden ones${haveLintian ? "" : " (skipped: lintian is not installed; .ci/run and npm run setup install it)"}`,
      () => {
        // the test's builds are uncompressed to save time; `npm run package` compresses (xz), which
        // .ci/run lints as built
        const r = spawnSync(
          "lintian",
          [
            "--fail-on",
            "error,warning",
            "--tag-display-limit",
            "0",
            "--suppress-tags",
            "uses-no-compression-for-data-tarball,uses-no-compression-for-control-tarball",
            debs.older.deb,
          ],
          { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
        );
        const tags = `${r.stdout}`.split("\n").filter((l) => /^[EW]: /.test(l));
        expect([r.status, tags]).toEqual([0, []]);
      },
      deadline(300_000),
    );

    it("ships the lintian overrides, each with a one-line reason above it", () => {
      const text = readFileSync(join(tree, "usr/share/lintian/overrides/pps-edge"), "utf8");
      expect(text).toBe(
        readFileSync(join(import.meta.dirname, "../../../packaging/pps-edge.lintian-overrides"), "utf8"),
      );
      const lines = text.trimEnd().split("\n");
      const overrides = lines
        .map((l, i) => [l, lines[i - 1] ?? ""] as const)
        .filter(([l]) => l.startsWith("pps-edge: "));
      expect(overrides.map(([l]) => l.split(" ")[1])).toContain("dir-or-file-in-opt");
      for (const [line, above] of overrides)
        expect([line, above]).toEqual([line, expect.stringMatching(/^# \S.{20,}/)]);
    });

    it("has a DEP-5 copyright file listing every bundled npm package with its licence", () => {
      const text = readFileSync(join(tree, "usr/share/doc/pps-edge/copyright"), "utf8");
      expect(text.split("\n")[0]).toBe(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
      );
      const bundled = packagesUnder(join(opt(), "node_modules"));
      expect(bundled.length).toBeGreaterThan(50);
      const listed = [
        ...text.matchAll(
          /^Files: opt\/pps-edge\/releases\/[^/]+\/node_modules\/(\S+)\/\*\n(?:(?:Copyright| ).*\n)+License: (\S.*)$/gm,
        ),
      ];
      expect(listed.map((m) => m[1]).sort()).toEqual([...bundled].sort());
      for (const m of listed)
        expect([m[1], m[2]]).toEqual([m[1], expect.stringMatching(/^[\w.-]+( and [\w.-]+)*$/)]);
    });

    it("has its changelog, for its version, as changelog.Debian.gz", () => {
      const log = gunzipSync(
        readFileSync(join(tree, "usr/share/doc/pps-edge/changelog.Debian.gz")),
      ).toString();
      expect(log.split("\n")[0]).toBe(`pps-edge (${debs.older.version}) unstable; urgency=medium`);
      const maintainer = dpkgDeb("-f", debs.older.deb, "Maintainer").trim();
      expect(log).toContain(` -- ${maintainer}  `);
    });

    it("holds under node_modules only what the agent runs", () => {
      const files = filesUnder(join(opt(), "node_modules")).map((f) => relative(opt(), f));
      const unwanted = files.filter(
        (f) =>
          /\/\.bin\//.test(f) ||
          /(^|\/)(test|tests|__tests__|\.github|examples?|benchmarks?|docs)\//.test(
            f.replace(/^node_modules\/((@[^/]+\/)?[^/]+\/)+/, ""),
          ) ||
          /\.(d\.ts|ts|map|md|html|gyp|c|cc|cpp|h|sln|vcproj)$/.test(f.replace(/LICEN[CS]E\.md$/i, "")) ||
          /(^|\/)\.(npmignore|eslintrc[^/]*|gitattributes|gitignore)$/.test(f) ||
          /musl/.test(f) ||
          (/\/prebuilds\//.test(f) && /win32|darwin|android|linux-(?!x64|arm64|arm)/.test(f)),
      );
      expect(unwanted).toEqual([]);
      const platform = `linux-${process.arch}`;
      const prebuilt = files.filter((f) => f.includes("/prebuilds/"));
      expect(prebuilt.length).toBeGreaterThan(0);
      expect(prebuilt.filter((f) => !f.includes(`${platform}/`))).toEqual([]);
      for (const dev of ["prebuild-install", "node-addon-api", "vitest"]) {
        expect([dev, existsSync(join(opt(), "node_modules", dev))]).toEqual([dev, false]);
      }
    });

    it("has stripped, non-executable native modules that load in this Node with no build tool on PATH", () => {
      const native = filesUnder(join(opt(), "node_modules")).filter((f) => f.endsWith(".node"));
      expect(native.map((f) => relative(opt(), f).split("/")[1]).sort()).toEqual(
        expect.arrayContaining(["@serialport", "better-sqlite3", "node-hid"]),
      );
      for (const f of native) {
        expect([f, (statSync(f).mode & 0o777).toString(8)]).toEqual([f, "644"]);
        const sections = execFileSync("readelf", ["-S", "-W", f], { encoding: "utf8" });
        expect([f, /\s\.symtab\s/.test(sections), /\s\.debug_/.test(sections)]).toEqual([f, false, false]);
      }
      // PATH empty: no npm, node-gyp, python3, make or compiler can be reached; the modules load as they are
      const script = `for (const f of ${JSON.stringify(native)}) require(f);
        new (require("better-sqlite3"))(":memory:").prepare("select 1").get();
        require("node-hid").devices; require("@serialport/bindings-cpp").autoDetect();`;
      const r = spawnSync(process.execPath, ["-e", script], {
        cwd: opt(),
        env: { PATH: "" },
        encoding: "utf8",
      });
      expect([r.status, r.stderr]).toEqual([0, ""]);
    });

    it("runs no build tool at install: the maintainer scripts call none", () => {
      for (const s of ["preinst", "postinst", "prerm", "postrm"]) {
        const text = readFileSync(join(control, s), "utf8");
        expect([
          s,
          text.match(/\b(npm|npx|node-gyp|prebuild-install|make|g\+\+|gcc|cc|python3?)\b(?= |$)/m),
        ]).toEqual([s, null]);
      }
    });
  });
}
