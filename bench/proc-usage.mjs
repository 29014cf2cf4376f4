// CPU time and memory of a process together with its descendants, from /proc: a RabbitMQ node is a start
// script, the Erlang VM and its helpers; an agent or a consumer is one process. CPU seconds are
// utime + stime (proc(5), in clock ticks of `getconf CLK_TCK`), memory the sum of VmRSS and of VmHWM.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name is in parentheses and may hold spaces: the fields after it are fixed
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), cpuTicks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

function statusKb(pid, field) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+)`, "m"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The process and every descendant alive now. */
function tree(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(name)]);
  }
  const all = [];
  for (const queue = [root]; queue.length; ) {
    const pid = queue.pop();
    all.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return all;
}

/** `{ cpuSeconds, rssMb, peakRssMb }` of `pid` and its descendants; zeros once it is gone. */
export function usage(pid) {
  if (!pid) return { cpuSeconds: 0, rssMb: 0, peakRssMb: 0 };
  const pids = tree(pid);
  const cpu = pids.reduce((n, p) => n + (stat(p)?.cpuTicks ?? 0), 0);
  const mb = (field) => Math.round(pids.reduce((n, p) => n + statusKb(p, field), 0) / 102.4) / 10;
  return { cpuSeconds: Math.round((cpu / TICKS) * 10) / 10, rssMb: mb("VmRSS"), peakRssMb: mb("VmHWM") };
}
