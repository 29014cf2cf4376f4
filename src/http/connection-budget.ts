/**
 * The station API's budget per connection (docs/limits.md), on the server's sockets: places per source
 * address (connection-table.ts) so one host cannot take all of `http.maxConnections`, connections
 * refused over that limit counted (Node's `drop` event), and a lingering close on every HTTP socket
 * (lingering-close.ts). The decisions are the table's; this file only wires sockets to it.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { connectionTable } from "../domain/connection-table.js";
import type { Metrics } from "../metrics.js";
import type { ConnectionWatch } from "./connection-watch.js";
import { lingerOnClose } from "./lingering-close.js";

export interface ConnectionBudget {
  /** Connections one source address may hold open at once. */
  perAddress: number;
  /** HTTPS: the HTTP layer's socket is the TLS one, handed over at `secureConnection`. */
  tls: boolean;
  /** Connections open at once (`http.maxConnections`), kept by `watch`. */
  total: number;
  watch: ConnectionWatch;
}

export function budgetConnections(server: Server, budget: ConnectionBudget, metrics: Metrics): void {
  const refusals = metrics.refusals();
  const table = connectionTable(budget.perAddress);
  // `connection` is the TCP socket on both HTTP and HTTPS: refused before any handshake or byte is read
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    if (!table.take(address, budget.watch.placesFor(address, budget.perAddress))) {
      refusals.inc({ reason: "http_connections_per_address" });
      socket.destroy();
      return;
    }
    socket.once("close", () => table.release(address));
    if (!budget.watch.admit(socket, budget.total)) {
      refusals.inc({ reason: "http_connections" });
      socket.destroy();
      return;
    }
    if (!budget.tls) lingerOnClose(socket);
  });
  if (budget.tls)
    server.on("secureConnection", (socket: Socket) => {
      budget.watch.secured(socket);
      lingerOnClose(socket);
    });
  // over `server.maxConnections` (a place more than the watch keeps) Node closes the socket itself
  server.on("drop", () => refusals.inc({ reason: "http_connections" }));
}
