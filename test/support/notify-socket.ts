import { type ChildProcess, spawn } from "node:child_process";
import { deadline } from "./deadline.js";

/**
 * A notify socket as the service manager opens it: a unix datagram socket on a path, or an abstract one
 * (`@name`), whose every message is kept as its list of assignments. Node cannot receive unix
 * datagrams, so Perl's core Socket module does (perl-base is Essential on Debian). Not socat: socat
 * keeps the file descriptor that `BARRIER=1` passes, so every systemd-notify would wait its 5 s timeout
 * for a barrier the manager would have closed at once; Perl's plain `recv` passes no room for it, so the
 * kernel closes it, as the manager does.
 */
const RECEIVER = `
use Socket;
my $p = shift; my $addr = $p =~ /^@/ ? "\\0" . substr($p, 1) : $p;
socket(my $s, AF_UNIX, SOCK_DGRAM, 0) or die "socket: $!";
bind($s, pack_sockaddr_un($addr)) or die "bind: $!";
$| = 1; print "listening\\n";
while (defined(recv($s, my $buf, 65536, 0))) { $buf =~ tr/\\n/\\x1e/; print "$buf\\n"; }
`;

export interface NotifySocket {
  /** The value for `$NOTIFY_SOCKET`. */
  address: string;
  /** Every message so far, each as its assignments (`READY=1`, `STATUS=…`). */
  messages: string[][];
  /** Waits until a message holds `assignment` (or one starting with it, for `STATUS=`); answers it. */
  waitFor(assignment: string, timeoutMs?: number): Promise<string[]>;
  close(): void;
}

export async function openNotifySocket(address: string): Promise<NotifySocket> {
  const proc: ChildProcess = spawn("perl", ["-e", RECEIVER, address], { stdio: ["ignore", "pipe", "pipe"] });
  const messages: string[][] = [];
  const waiters: Array<() => void> = [];
  let buf = "";
  let err = "";
  proc.stderr?.on("data", (d) => {
    err += String(d);
  });
  await new Promise<void>((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`notify socket receiver exited with ${code}: ${err}`)));
    proc.stdout?.on("data", (d) => {
      buf += String(d);
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "listening") resolve();
        else messages.push(line.split("\x1e"));
      }
      for (const w of waiters.splice(0)) w();
    });
  });
  const find = (assignment: string) => messages.find((m) => m.some((a) => a.startsWith(assignment)));
  return {
    address,
    messages,
    async waitFor(assignment, timeoutMs = 15_000) {
      const end = Date.now() + deadline(timeoutMs);
      for (;;) {
        const found = find(assignment);
        if (found) return found;
        if (Date.now() > end) {
          throw new Error(`no ${assignment} on the notify socket; got ${JSON.stringify(messages)}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => proc.kill(),
  };
}
