#!/usr/bin/env node
// Installs the system packages the tests use when they are missing: socat (pseudo-terminals for
// serial devices), mosquitto (a second real MQTT broker), libusb and libudev (node-hid's native
// binding links them), chromium and a font (the operator screen's browser tests drive Debian's
// chromium; no browser is ever downloaded), curl (the docs' commands are run as written), openssl
// (throwaway certificates for the HTTPS and MQTT TLS tests), systemd (systemd-analyze checks the unit,
// systemd-notify carries the agent's readiness and watchdog messages), fuse3 and python3-fusepy (the
// power-cut tests' file system, test/support/powercut/: fusermount, and the FUSE binding of Debian's
// /usr/bin/python3), rabbitmq-server and nats-server (the clustered brokers of the fleet system test
// and `npm run bench fleet -- --broker rabbitmq-cluster|nats-cluster`; each test starts its own nodes on
// free ports, never the system service), lintian (the Debian package's checks, test/system/package/),
// python3, make and g++ (node-gyp compiles better-sqlite3 from source where `npm ci` can download no
// prebuilt binary for this Node and architecture; README "Quick start"). Run by `npm run setup` (and by
// `npm run bench`'s prebench), so `npm ci && npm run setup && npm test` works on a fresh Debian machine;
// `npm test` itself installs nothing.
import { execFileSync, spawnSync } from "node:child_process";

const wanted = [
  { bin: "socat", pkg: "socat" },
  { bin: "mosquitto", pkg: "mosquitto", paths: ["/usr/sbin/mosquitto"] },
  { bin: "mosquitto_sub", pkg: "mosquitto-clients" },
  { bin: "chromium", pkg: "chromium", paths: ["/usr/bin/chromium"] },
  { bin: "curl", pkg: "curl" },
  { bin: "openssl", pkg: "openssl" },
  { bin: "systemd-analyze", pkg: "systemd" },
  { bin: "fusermount3", pkg: "fuse3" },
  { bin: "rabbitmq-server", pkg: "rabbitmq-server", paths: ["/usr/lib/rabbitmq/bin/rabbitmq-server"] },
  { bin: "nats-server", pkg: "nats-server", paths: ["/usr/sbin/nats-server"] },
  { bin: "lintian", pkg: "lintian" },
  { bin: "python3", pkg: "python3" },
  { bin: "make", pkg: "make" },
  { bin: "g++", pkg: "g++" },
  // a slow-read client (`-X`) against the send deadline (test/system/http/slow-readers.test.ts)
  { bin: "slowhttptest", pkg: "slowhttptest" },
  // the labels' tests: PDFs rendered at the printer's resolution (pdftoppm) and read back as text
  // (pdftotext), barcodes decoded by real readers (zbarimg, dmtxread), a CUPS scheduler of their own
  // (cupsd, with lp, lpstat and cancel) started by the tests on loopback
  { bin: "pdftoppm", pkg: "poppler-utils" },
  { bin: "zbarimg", pkg: "zbar-tools" },
  { bin: "dmtxread", pkg: "dmtx-utils" },
  { bin: "cupsd", pkg: "cups", paths: ["/usr/sbin/cupsd"] },
  { bin: "lpstat", pkg: "cups-client" },
];
const libs = ["libusb-1.0-0", "libudev1", "fonts-dejavu-core", "python3-fusepy"];

function have(bin, paths = []) {
  if (paths.some((p) => spawnSync("test", ["-x", p]).status === 0)) return true;
  return spawnSync("sh", ["-c", `command -v ${bin}`], { stdio: "ignore" }).status === 0;
}

function libInstalled(pkg) {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a template
  const r = spawnSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8" });
  return r.status === 0 && r.stdout.includes("install ok installed");
}

const missing = [
  ...wanted.filter((w) => !have(w.bin, w.paths)).map((w) => w.pkg),
  ...libs.filter((l) => spawnSync("sh", ["-c", "command -v dpkg-query"]).status === 0 && !libInstalled(l)),
];

if (missing.length === 0) process.exit(0);

const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (!hasApt) {
  console.warn(`setup: missing ${missing.join(", ")} and no apt-get here; install them by hand`);
  process.exit(0);
}
const [cmd, ...pre] = isRoot ? ["apt-get"] : ["sudo", "-n", "apt-get"];
console.log(`setup: installing ${missing.join(", ")}`);
try {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync(cmd, [...pre, "update", "-qq"], { stdio: "inherit", env });
  execFileSync(cmd, [...pre, "install", "-y", "-qq", "--no-install-recommends", ...missing], {
    stdio: "inherit",
    env,
  });
} catch (e) {
  console.warn(`setup: could not install ${missing.join(", ")}: ${e.message}`);
}
