import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  randomFillSync,
  timingSafeEqual,
} from "node:crypto";

/** Hex HMAC-SHA256 of a message. */
export function hmacHex(key: string | Uint8Array, message: string): string {
  return createHmac("sha256", key).update(message).digest("hex");
}

/** Compares two hex strings in constant time; anything that is not hex of one length is unequal. */
export function equalHex(a: string, b: string): boolean {
  if (a.length !== b.length || !/^[0-9a-f]*$/i.test(a) || !/^[0-9a-f]*$/i.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}

const NONCE_BYTES = 16;
const NONCES_PER_FILL = 256;
const pool = Buffer.alloc(NONCE_BYTES * NONCES_PER_FILL);
let poolOffset = pool.length;

/**
 * A fresh 128-bit nonce, base64 (each answer's content security policy names one). The
 * random bytes are drawn from the system 256 nonces at a time, not once for each request;
 * no byte serves twice.
 */
export function cspNonce(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const nonce = pool.toString("base64", poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

const SEAL_VERSION = "v1";

function sealKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "memberhall-seal", purpose, 32));
}

/**
 * Encrypts a small secret (AES-256-GCM, a key derived from the server's secret for this
 * purpose): what is stored or handed to the browser reads as nothing without the server.
 */
export function seal(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    SEAL_VERSION,
    iv.toString("base64url"),
    body.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
  ].join(".");
}

/** The plaintext of `seal`, or null for anything this server's secret did not seal for this purpose. */
export function unseal(secret: string, purpose: string, sealed: string): string | null {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== SEAL_VERSION || !iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealKey(secret, purpose), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
