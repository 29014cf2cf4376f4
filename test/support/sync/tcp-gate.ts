import { connect, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP forwarder in front of a broker that the test opens and shuts: while shut, connections to it are
 * refused, as to a broker that is down. It lets a test have central subscribed again on a restarted broker
 * without persistence before any station can reach it (central's subscription is lost with the broker,
 * and what a station publishes before central is back is for nobody).
 */
export interface TcpGate {
  readonly port: number;
  readonly url: string;
  open(): Promise<void>;
  /** Stops taking connections and cuts the ones it carries. */
  shut(): Promise<void>;
}

export async function tcpGate(targetPort: number): Promise<TcpGate> {
  const carried = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((ok, fail) => {
      const s = createServer((down) => {
        const up = connect(targetPort, "127.0.0.1");
        for (const x of [down, up]) {
          carried.add(x);
          x.once("close", () => carried.delete(x));
          x.on("error", () => {
            down.destroy();
            up.destroy();
          });
        }
        down.pipe(up);
        up.pipe(down);
      });
      s.once("error", fail);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as { port: number }).port;
        server = s;
        ok();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    get url() {
      return `mqtt://127.0.0.1:${port}`;
    },
    open: listen,
    shut: async () => {
      const s = server;
      server = undefined;
      for (const x of carried) x.destroy();
      if (s) await new Promise<void>((ok) => s.close(() => ok()));
    },
  };
}
