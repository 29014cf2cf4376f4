import { createServer, type Server, type Socket } from "node:net";
import { Aedes } from "aedes";
import type { Logger } from "pino";
import { type BrokerGuardOptions, brokerGuard } from "./broker-guard.js";

export interface EmbeddedBrokerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Who may connect and what they may do (broker-guard.ts). */
  guard: Omit<BrokerGuardOptions, "log">;
  log: Logger;
}

export interface EmbeddedBroker {
  /** `mqtt://host:port` of the listening broker. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * `mqtt.url: embedded` (docs/architecture.md#interfaces): an in-process aedes broker on a local TCP port, so a new user
 * sees the station's notifications with any MQTT client and no other software. It keeps retained
 * messages in memory only, which is why the agent republishes them on every connect
 * (docs/mqtt.md#retained-state). aedes speaks MQTT 3.1.1. Every client authenticates and is held to
 * the station's ACL (broker-guard.ts), unless `mqtt.embeddedAnonymous` lets clients in without credentials.
 */
export async function startEmbeddedBroker(opts: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { closed, ...hooks } = brokerGuard({ ...opts.guard, log: opts.log });
  const broker = await Aedes.createBroker({ id: "pps-edge-embedded", ...hooks });
  // a user's connection is watched for revocation until it ends (broker-guard.ts)
  broker.on("clientDisconnect", closed);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    broker.handle(socket);
  });
  broker.on("clientError", (client, err) =>
    opts.log.debug({ err, client: client.id }, "mqtt broker: client error"),
  );
  try {
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(opts.port, opts.host, () => {
        server.off("error", fail);
        ok();
      });
    });
  } catch (e) {
    await new Promise<void>((ok) => broker.close(() => ok()));
    throw e;
  }
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  opts.log.info({ host: opts.host, port }, "embedded MQTT broker listening");
  if (opts.guard.anonymous) {
    opts.log.warn(
      { host: opts.host, port },
      "embedded MQTT broker lets clients in without credentials (mqtt.embeddedAnonymous)",
    );
  }

  return {
    url: `mqtt://${host}:${port}`,
    port,
    async stop() {
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      for (const s of sockets) s.destroy();
      await closed;
      await new Promise<void>((ok) => broker.close(() => ok()));
    },
  };
}
