/**
 * A Zebra on a loopback socket for the tests (docs/hardware.md#zebra-host-status): it takes `^XA…^XZ`
 * formats into its buffer, prints them one by one while nothing stops it, answers `~HS` with the three
 * strings of the programming guide's field layout and drops its buffer on `~JA` (the label being printed
 * finishes, as the guide says of `~JA`). Faults as on the real
 * printer: paused, out of paper or head open, a format received stays in the buffer and prints once the
 * fault is cleared (unless cancelled); `silent` answers nothing (as the guide says of some faults) and
 * prints nothing; `dropNextFormat` closes the connection when the next format begins.
 */
import { createServer, type Server, type Socket } from "node:net";

export interface ZebraFaults {
  paused: boolean;
  paperOut: boolean;
  headOpen: boolean;
  /** No answer to ~HS, nothing printed (a fault the printer does not report). */
  silent: boolean;
}

export interface FakeZebra {
  readonly host: string;
  readonly port: number;
  /** The formats printed, in order (each `^XA…^XZ` as UTF-8 text). */
  readonly printed: string[];
  /** Formats received and not printed yet. */
  buffered(): number;
  /** How many ~HS and ~JA it was sent. */
  readonly counts: { statusQueries: number; cancels: number; connections: number };
  set(faults: Partial<ZebraFaults>): void;
  /** Closes the connection as soon as the next format begins (its bytes are lost). */
  dropNextFormat(): void;
  close(): Promise<void>;
}

const STX = "\u0002";
const ETX = "\u0003";

export async function startFakeZebra(opts: { printMs?: number } = {}): Promise<FakeZebra> {
  const printMs = opts.printMs ?? 150;
  const faults: ZebraFaults = { paused: false, paperOut: false, headOpen: false, silent: false };
  const queue: Buffer[] = [];
  const printed: string[] = [];
  const counts = { statusQueries: 0, cancels: 0, connections: 0 };
  const sockets = new Set<Socket>();
  let printing: NodeJS.Timeout | undefined;
  let drop = false;
  let partial = false;

  const stopped = () => faults.paused || faults.paperOut || faults.headOpen || faults.silent;

  /** The format being printed: taken out of the buffer, so `~JA` does not stop it (as the guide says). */
  let current: Buffer | undefined;

  function pump(): void {
    if (printing || stopped() || queue.length === 0) return;
    current = queue.shift();
    printing = setTimeout(() => {
      printing = undefined;
      // a fault that came while it printed: it waits in the buffer again
      if (current && stopped()) queue.unshift(current);
      else if (current) printed.push(current.toString("utf8"));
      current = undefined;
      pump();
    }, printMs);
  }

  const held = () => queue.length + (current ? 1 : 0);

  /** The ~HS answer, field by field as the ZPL II Programming Guide lays out the three strings. */
  function hostStatus(): string {
    const b = (v: boolean) => (v ? "1" : "0");
    // aaa,b,c,dddd,eee,f,g,h,iii,j,k,l: settings, paper out, pause, label length, formats in buffer,
    // buffer full, diagnostic mode, partial format, unused, corrupt RAM, under / over temperature
    const s1 = `030,${b(faults.paperOut)},${b(faults.paused)},1218,${String(held()).padStart(3, "0")},0,0,${b(partial)},000,0,0,0`;
    // mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www: settings, unused, head up, ribbon out, thermal transfer,
    // print mode, width mode, label waiting, labels remaining, format while printing, graphics stored
    const s2 = `001,0,${b(faults.headOpen)},0,0,2,6,0,${String(printing ? 1 : 0).padStart(8, "0")},1,000`;
    // xxxx,y: password, static RAM
    const s3 = "1234,0";
    return [s1, s2, s3].map((s) => `${STX}${s}${ETX}\r\n`).join("");
  }

  function serve(socket: Socket): void {
    counts.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let format: Buffer[] | null = null;
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let i = 0;
      while (i < pending.length) {
        const three = pending.subarray(i, i + 3).toString("latin1");
        if (three.length < 3 && (three.startsWith("~") || three.startsWith("^"))) break;
        if (three === "~HS") {
          counts.statusQueries++;
          if (!faults.silent) socket.write(hostStatus(), "latin1");
          i += 3;
        } else if (three === "~JA") {
          counts.cancels++;
          queue.length = 0;
          i += 3;
        } else if (three === "^XA") {
          if (drop) {
            drop = false;
            partial = false;
            socket.destroy();
            return;
          }
          format = [Buffer.from("^XA")];
          partial = true;
          i += 3;
        } else if (three === "^XZ" && format) {
          format.push(Buffer.from("^XZ"));
          queue.push(Buffer.concat(format));
          format = null;
          partial = false;
          i += 3;
          pump();
        } else {
          format?.push(pending.subarray(i, i + 1));
          i++;
        }
      }
      pending = pending.subarray(i);
    });
  }

  const server: Server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("fake zebra: no port");
  return {
    host: "127.0.0.1",
    port: address.port,
    printed,
    buffered: held,
    counts,
    set(more) {
      Object.assign(faults, more);
      pump();
    },
    dropNextFormat() {
      drop = true;
    },
    async close() {
      if (printing) clearTimeout(printing);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
