export function reportFileName(id: number): string {
  return `inventory-${id}.csv`;
}

/**
 * The base of the URLs the agent hands out: `http.publicUrl` when set, else `http://host:port` (`https`
 * with `http.tls`), with the machine's name for a wildcard listen address (0.0.0.0 or ::) that no client
 * could connect to.
 */
export function publicBaseUrl(
  http: {
    host: string;
    port: number;
    publicUrl?: string | undefined;
    tls?: { certFile?: string | undefined };
  },
  hostname: string,
): string {
  if (http.publicUrl) return http.publicUrl;
  const host = http.host === "0.0.0.0" || http.host === "::" ? hostname : http.host;
  const scheme = http.tls?.certFile ? "https" : "http";
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${http.port}`;
}
