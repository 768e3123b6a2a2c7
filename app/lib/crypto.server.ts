import { createHmac, timingSafeEqual } from "node:crypto";

/** Hex HMAC-SHA256 of a message. */
export function hmacHex(key: string | Uint8Array, message: string): string {
  return createHmac("sha256", key).update(message).digest("hex");
}

/** Compares two hex strings in constant time; anything that is not hex of one length is unequal. */
export function equalHex(a: string, b: string): boolean {
  if (a.length !== b.length || !/^[0-9a-f]*$/i.test(a) || !/^[0-9a-f]*$/i.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}
