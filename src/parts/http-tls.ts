/**
 * HTTPS for the station API (`http.tls`, docs/security.md): bearer tokens and passwords cross the
 * station LAN. The certificate is read and checked before the server is made (a bad file stops the
 * start with the key at fault), and read again on SIGHUP, so a renewed certificate is taken without a
 * restart; a renewal that does not read keeps the certificate in use and says why in the log.
 */
import type { ServerOptions as HttpsOptions, Server as HttpsServer } from "node:https";
import type { Logger } from "pino";
import { type CertificateFiles, readCertificate } from "../shell/certificate-files.js";
import type { Foundation } from "./foundation.js";

type HttpConfig = Foundation["config"]["http"];

/** The configured certificate files, or undefined for plain HTTP (the config allows both or neither). */
export function httpsFiles(http: HttpConfig): CertificateFiles | undefined {
  const { certFile, keyFile } = http.tls;
  return certFile && keyFile ? { certFile, keyFile } : undefined;
}

/**
 * The TLS part of the server's options. `handshakeTimeout` is the headers timeout: Node's HTTP timeouts
 * start once the TLS session is up, so without it a client that opens a socket and never says hello
 * would hold it for TLS's default 120 s.
 */
export function httpsOptions(files: CertificateFiles, http: HttpConfig, log: Logger): HttpsOptions {
  const { cert, key, validTo } = readCertificate("http.tls", files);
  log.info({ certFile: files.certFile, validTo }, "station API served over HTTPS");
  return { cert, key, handshakeTimeout: http.headersTimeoutMs };
}

/** SIGHUP reads the certificate files again; returns what stops listening for it. */
export function reloadOnHangup(server: HttpsServer, files: CertificateFiles, log: Logger): () => void {
  const reload = () => {
    try {
      const { cert, key, validTo } = readCertificate("http.tls", files);
      server.setSecureContext({ cert, key });
      log.info({ certFile: files.certFile, validTo }, "HTTPS certificate reloaded (SIGHUP)");
    } catch (err) {
      log.error({ err: (err as Error).message }, "HTTPS certificate not reloaded; the previous one stays");
    }
  };
  process.on("SIGHUP", reload);
  return () => process.off("SIGHUP", reload);
}
