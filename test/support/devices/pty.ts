/**
 * Pseudo-terminal pairs made by socat (hardware.md §7): the agent opens one end as its serial port, the
 * test plays the device on the other. With `link` paths the pair can be killed (an unplug) and made
 * again on the same paths (a replug), as a /dev/serial/by-id link comes back with its device.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SerialPort } from "serialport";
import { deadline } from "../deadline.js";

export interface PtyPair {
  /** The agent's end (a link path when links were given). */
  agent: string;
  /** The device's end. */
  device: string;
  pid: number;
  /** Ends socat (by its pid) and waits for it to exit. */
  close(): Promise<void>;
}

const linkDirs: string[] = [];
process.once("exit", () => {
  for (const dir of linkDirs) rmSync(dir, { recursive: true, force: true });
});

/** Two link paths in a fresh temp folder, removed when the test process exits. */
export function linkPaths(name: string): { agent: string; device: string } {
  const dir = mkdtempSync(join(tmpdir(), `pps-pty-${name}-`));
  linkDirs.push(dir);
  return { agent: join(dir, "agent"), device: join(dir, "device") };
}

/** Starts `socat -d -d pty,raw,echo=0 pty,raw,echo=0` and reads both pty paths from its stderr. */
export function ptyPair(links?: { agent: string; device: string }, timeoutMs = 5000): Promise<PtyPair> {
  const end = (link?: string) => `pty,raw,echo=0${link ? `,link=${link}` : ""}`;
  const child: ChildProcess = spawn("socat", ["-d", "-d", end(links?.agent), end(links?.device)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const paths: string[] = [];
    let text = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`socat did not start: ${text}`));
    }, deadline(timeoutMs));
    child.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      for (const m of text.matchAll(/PTY is (\S+)/g))
        if (!paths.includes(m[1] as string)) paths.push(m[1] as string);
      if (paths.length === 2 && text.includes("starting data transfer loop")) {
        clearTimeout(timer);
        const pid = child.pid as number;
        const exited = new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) done();
          else child.once("exit", () => done());
        });
        resolve({
          agent: links?.agent ?? (paths[0] as string),
          device: links?.device ?? (paths[1] as string),
          pid,
          async close() {
            if (child.exitCode === null && child.signalCode === null) process.kill(pid, "SIGTERM");
            await exited;
          },
        });
      }
    });
  });
}

/** The device's end of a pair, opened with serialport like any port. */
export async function openDeviceEnd(path: string, baudRate = 9600): Promise<SerialPort> {
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((ok, fail) => port.open((e) => (e ? fail(e) : ok())));
  port.on("error", () => {});
  return port;
}

export function closePort(port: SerialPort): Promise<void> {
  return new Promise((done) => (port.isOpen ? port.close(() => done()) : done()));
}

export function writeTo(port: SerialPort, bytes: Uint8Array | string): Promise<void> {
  const data = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes);
  return new Promise((ok, fail) => port.write(data, (e) => (e ? fail(e) : ok())));
}
