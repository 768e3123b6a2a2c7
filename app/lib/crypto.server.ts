import { createHmac, randomFillSync, timingSafeEqual } from "node:crypto";

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
