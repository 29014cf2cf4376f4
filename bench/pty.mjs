// Pseudo-terminal pairs for the benchmarks, made by socat (hardware.md §7), and a SorTexx-style
// control unit played on the device end: every command is answered with its echo, `C` for an LED on.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SerialPort } from "serialport";

/** `socat pty,raw,echo=0,link=A pty,raw,echo=0,link=B`; resolves once both ends exist. Close ends socat by pid. */
export function ptyPair(name) {
  const dir = mkdtempSync(join(tmpdir(), `pps-bench-${name}-`));
  const links = { agent: join(dir, "agent"), device: join(dir, "device") };
  const child = spawn(
    "socat",
    ["-d", "-d", `pty,raw,echo=0,link=${links.agent}`, `pty,raw,echo=0,link=${links.device}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`socat did not start: ${text}`)), 5000);
    child.once("error", reject);
    child.stderr.on("data", (d) => {
      text += d;
      if (!text.includes("starting data transfer loop")) return;
      clearTimeout(timer);
      const exited = new Promise((ok) => child.once("exit", ok));
      resolve({
        ...links,
        pid: child.pid,
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGTERM");
          await exited;
        },
      });
    });
  });
}

export async function openPort(path) {
  const port = new SerialPort({ path, baudRate: 9600, autoOpen: false });
  await new Promise((ok, fail) => port.open((e) => (e ? fail(e) : ok())));
  port.on("error", () => {});
  return port;
}

export const closePort = (port) => new Promise((ok) => (port.isOpen ? port.close(() => ok()) : ok()));

/** Answers every frame read on `port`; calls `onFrame(frame, at)` with the time its last byte arrived. */
export function sortexxUnit(port, onFrame) {
  let buf = "";
  port.on("data", (chunk) => {
    const at = performance.now();
    buf += chunk.toString("latin1");
    for (const m of buf.matchAll(/<(\d{6})(.)(.)(.)>/g)) {
      const on = (m[2] === "1" || m[2] === "2") && m[3] !== "0";
      port.write(`${m[0].slice(0, 9)}${on ? "C" : "0"}>`);
      onFrame(m[0], at);
    }
    buf = buf.slice(buf.lastIndexOf(">") + 1);
  });
}

/** Resolves the next frame equal to `frame` with the time its last byte was read. */
export function frameWaiter() {
  const waiting = [];
  return {
    onFrame(frame, at) {
      const i = waiting.findIndex((w) => w.frame === frame);
      if (i >= 0) waiting.splice(i, 1)[0].resolve(at);
    },
    next(frame) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${frame} within 5 s`)), 5000);
        waiting.push({
          frame,
          resolve: (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        });
      });
    },
  };
}
