import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A certificate authority of the test's own and a certificate it signed for localhost and 127.0.0.1. */
export function makeCertificates(dir: string) {
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(
    "req",
    "-x509",
    ...key,
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
    "-days",
    "2",
    "-subj",
    "/CN=memberhall test CA",
  );
  openssl("req", ...key, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
  writeFileSync(
    path.join(dir, "server.ext"),
    [
      "basicConstraints=CA:FALSE",
      "keyUsage=digitalSignature",
      "extendedKeyUsage=serverAuth",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ].join("\n"),
  );
  openssl(
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.crt",
    "-days",
    "2",
    "-extfile",
    "server.ext",
  );
  return {
    ca: readFileSync(path.join(dir, "ca.crt")),
    certificate: path.join(dir, "server.crt"),
    certificateKey: path.join(dir, "server.key"),
  };
}
