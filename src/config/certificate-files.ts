/**
 * A server certificate and its key read from PEM files, checked before any listener uses them: a file
 * that cannot be read, is not PEM, or a key that does not belong to the certificate is a `StartError`
 * naming the config key and the file, not an OpenSSL stack at the first handshake. One reader for the
 * station API's HTTPS (`http.tls`) and the embedded broker's TLS listener (`mqtt.embeddedTls`).
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { StartError } from "../start-error.js";

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

export interface Certificate {
  cert: Buffer;
  key: Buffer;
  /** When the certificate expires (its `notAfter`), for the start's log line. */
  validTo: string;
}

/** A PEM file named by config key `key`; a StartError naming the key and the fix when it cannot be read. */
export function readPem(file: string, key: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as { code?: string }).code ?? (err as Error).message;
    throw new StartError(
      `cannot read ${file} (${code})`,
      key,
      "fix the path, or let the agent's user read the file",
      { cause: err },
    );
  }
}

/** Reads and checks `<section>.certFile` and `<section>.keyFile`. */
export function readCertificate(section: string, files: CertificateFiles): Certificate {
  const certKey = `${section}.certFile`;
  const keyKey = `${section}.keyFile`;
  const cert = readPem(files.certFile, certKey);
  const key = readPem(files.keyFile, keyKey);
  let validTo: string;
  try {
    validTo = new X509Certificate(cert).validTo;
  } catch (err) {
    throw new StartError(
      `${files.certFile} is not a PEM certificate`,
      certKey,
      "give the server certificate in PEM (-----BEGIN CERTIFICATE-----), its chain after it",
      { cause: err },
    );
  }
  try {
    createPrivateKey(key);
  } catch (err) {
    throw new StartError(
      `${files.keyFile} is not a PEM private key without a passphrase`,
      keyKey,
      "give the certificate's private key in PEM, unencrypted (-----BEGIN PRIVATE KEY-----)",
      { cause: err },
    );
  }
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new StartError(
      `${files.keyFile} is not the key of ${files.certFile} (${(err as Error).message})`,
      keyKey,
      "give the private key the certificate was made for",
      { cause: err },
    );
  }
  return { cert, key, validTo };
}
