/**
 * The Debian package of `npm run package` as dpkg-deb shows it (docs/operations.md#install-on-a-station): its
 * fields and dependencies, the installed layout, the conffile, the maintainer scripts, and the default
 * config file (packaging/pps-edge.yaml, generated from the config schema).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: plain ESM module without types
import { AGENT_NODE_FLAGS } from "../../../bench/lib.mjs";
import { leafPaths } from "../../../src/config/config.env.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { configSchema } from "../../../src/config/config.schema.js";
import { type Debs, dpkgArch, dpkgDeb, ROOT } from "./support/debs.js";
import { configKeysOf, uncommentKeys } from "./support/default-config.js";

const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
};
const repo = (p: string) => readFileSync(join(ROOT, p), "utf8");

/** The checks of the package's contents, on the debs package.test.ts builds once for both suites. */
export function contentsSuite(built: () => Debs): void {
  let debs: Debs;
  let tree: string;
  let control: string;
  const file = (p: string) => readFileSync(join(tree, p), "utf8");

  beforeAll(() => {
    debs = built();
    tree = mkdtempSync(join(tmpdir(), "pps-edge-deb-tree-"));
    dpkgDeb("-x", debs.older.deb, tree);
    control = join(tree, "DEBIAN");
    dpkgDeb("-e", debs.older.deb, control);
  });
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  describe("its contents", () => {
    it("is pps-edge at package.json's version, depending on the Node major it was built with", () => {
      const field = (f: string) => dpkgDeb("-f", debs.older.deb, f).trim();
      expect([field("Package"), field("Version"), field("Architecture")]).toEqual([
        "pps-edge",
        debs.older.version,
        dpkgArch(),
      ]);
      expect(debs.older.version.split("-")[0]).toBe(PKG.version);
      const major = Number(process.versions.node.split(".")[0]);
      const depends = field("Depends").split(/,\s*/);
      expect(depends).toEqual(expect.arrayContaining([`nodejs (>= ${major})`, `nodejs (<< ${major + 1})`]));
      expect(depends).toEqual(expect.arrayContaining(["libudev1", "libusb-1.0-0", "fonts-dejavu-core"]));
      // lp, lpstat and cancel for a CUPS label printer (docs/hardware.md#label-printers)
      expect(field("Suggests")).toBe("cups-client");
      expect(Number(field("Installed-Size"))).toBeGreaterThan(1000);
      expect(dpkgDeb("-f", debs.newer.deb, "Version").trim()).toBe(`${debs.older.version}+next`);
    });

    it("holds the installed layout, owned by root, with the production modules and their native bindings", () => {
      const lines = dpkgDeb("--contents", debs.older.deb).trim().split("\n");
      expect(lines.filter((l) => !/^\S+ root\/root /.test(l))).toEqual([]);
      const paths = lines.map((l) => (l.split(/\s+/).slice(5).join(" ") as string).replace(/ -> .*/, ""));
      const release = `opt/pps-edge/releases/${debs.older.version}`;
      expect(lines.find((l) => l.includes(" ./opt/pps-edge/current -> "))).toMatch(
        new RegExp(
          `^lrwxrwxrwx .* \\./opt/pps-edge/current -> releases/${debs.older.version.replaceAll("+", "\\+")}$`,
        ),
      );
      const mode = (p: string) => lines.find((l) => l.endsWith(` ./${p}`))?.split(" ")[0];
      for (const p of [
        `${release}/dist/app/main.js`,
        `${release}/dist/app/agent.js`,
        `${release}/package.json`,
        `${release}/README.md`,
        `${release}/docs/architecture.md`,
        `${release}/drizzle/meta/_journal.json`,
        `${release}/firmware-profiles/honeywell-hidpos.json`,
        `${release}/src/station/screen/page/index.html`,
        `${release}/src/http/docs-page/index.html`,
        `${release}/node_modules/better-sqlite3/build/Release/better_sqlite3.node`,
        "etc/pps-edge/pps-edge.yaml",
        "lib/systemd/system/pps-edge.service",
        "usr/lib/udev/rules.d/99-pps-edge.rules",
        "usr/lib/sysusers.d/pps-edge.conf",
        "usr/lib/tmpfiles.d/pps-edge.conf",
      ]) {
        expect([p, paths.includes(`./${p}`)]).toEqual([p, true]);
      }
      expect(mode("usr/bin/pps-edge")).toBe("-rwxr-xr-x");
      const native = paths.filter((p) => p.endsWith(".node"));
      expect(native.some((p) => p.includes("/@serialport/bindings-cpp/") && p.includes(".glibc."))).toBe(
        true,
      );
      expect(native.some((p) => p.includes("/node-hid/prebuilds/HID_hidraw-linux-"))).toBe(true);
      for (const dep of Object.keys(PKG.dependencies)) {
        expect([dep, paths.includes(`./${release}/node_modules/${dep}/package.json`)]).toEqual([dep, true]);
      }
      for (const dev of ["vitest", "typescript", "@biomejs/biome", "drizzle-kit", "tsx"]) {
        expect([dev, paths.some((p) => p.startsWith(`./${release}/node_modules/${dev}/`))]).toEqual([
          dev,
          false,
        ]);
      }
      expect(paths.filter((p) => p.endsWith(".map") || p.endsWith(".ts"))).toEqual([]);
    });

    it("ships the unit as written, and a launcher that runs the agent's Node flags with the station's paths", () => {
      expect(file("lib/systemd/system/pps-edge.service")).toBe(repo("systemd/pps-edge.service"));
      const launcher = file("usr/bin/pps-edge");
      expect(launcher).toBe(repo("systemd/pps-edge.launcher.sh"));
      execFileSync("sh", ["-n", join(tree, "usr/bin/pps-edge")]);
      expect(launcher).toContain(
        `exec /usr/bin/node ${(AGENT_NODE_FLAGS as string[]).join(" ")} /opt/pps-edge/current/dist/app/main.js "$@"`,
      );
      // the defaults, kept when the variable is set (sh's `${VAR:=default}`)
      expect(launcher).toMatch(/^: "\$\{PPS_EDGE_CONFIG:=\/etc\/pps-edge\/pps-edge\.yaml\}"$/m);
      expect(launcher).toMatch(/^: "\$\{PPS_EDGE_DATA_DIR:=\/var\/lib\/pps-edge\}"$/m);
    });

    it("has the config as its one conffile, and maintainer scripts that parse and hold the shared functions", () => {
      expect(readFileSync(join(control, "conffiles"), "utf8")).toBe("/etc/pps-edge/pps-edge.yaml\n");
      for (const s of ["preinst", "postinst", "prerm", "postrm"]) {
        execFileSync("sh", ["-n", join(control, s)]);
        const text = readFileSync(join(control, s), "utf8");
        expect([s, text.startsWith("#!/bin/sh\n"), text.includes("#COMMON#")]).toEqual([s, true, false]);
        expect([s, text]).toEqual([s, expect.stringContaining("systemd_running()")]);
      }
      const postinst = readFileSync(join(control, "postinst"), "utf8");
      expect(postinst).toContain("as_agent backup --keep 5");
      expect(postinst).toContain("[ -d /run/systemd/system ]");
    });

    it("creates the user pps-edge in dialout and plugdev, and its data folder; installs the udev rules of packaging/", () => {
      const sysusers = file("usr/lib/sysusers.d/pps-edge.conf");
      expect(sysusers).toMatch(/^u pps-edge - .* \/var\/lib\/pps-edge$/m);
      expect(sysusers).toMatch(/^m pps-edge dialout$/m);
      expect(sysusers).toMatch(/^m pps-edge plugdev$/m);
      expect(file("usr/lib/tmpfiles.d/pps-edge.conf")).toMatch(
        /^d \/var\/lib\/pps-edge 0750 pps-edge pps-edge -$/m,
      );
      const rules = repo("packaging/99-pps-edge.rules");
      expect(rules).toContain("KERNEL==");
      expect(file("usr/lib/udev/rules.d/99-pps-edge.rules")).toBe(rules);
      expect(file("usr/lib/sysusers.d/pps-edge.conf")).toBe(repo("packaging/pps-edge.sysusers"));
    });

    it("has a default config that is all comments, names every key of the schema, is packaging/pps-edge.yaml, and uncommented is the defaults", () => {
      const yaml = file("etc/pps-edge/pps-edge.yaml");
      expect(parse(yaml)).toBeNull();
      expect(configKeysOf(yaml)).toEqual(leafPaths(configSchema).map((p) => p.join(".")));
      expect(yaml).toBe(repo("packaging/pps-edge.yaml"));
      const uncommented = parseConfig(uncommentKeys(yaml), {});
      expect(uncommented).toEqual({ ...parseConfig({}, {}), dataDir: "/var/lib/pps-edge" });
    });
  });
}
