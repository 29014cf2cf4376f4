import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "./agent.js";

export interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
}

/**
 * A throwaway self-signed certificate for `localhost` and 127.0.0.1, made with openssl at test time
 * (nothing secret in the repository); the certificate is its own CA, so a client trusts it with
 * `ca: readFileSync(certFile)`.
 */
export function makeCertificate(dir = tempDir("pps-edge-cert-"), name = "server"): TestCertificate {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-days", "1", "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ...["-keyout", keyFile, "-out", certFile],
    ],
    { stdio: "ignore" },
  );
  return { dir, certFile, keyFile };
}
