import { secp256k1 } from "@noble/curves/secp256k1";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import { z } from "zod";
import type { SessionStateCore } from "~/domain/session-state";
import { equalHex, hmacHex } from "~/lib/crypto.server";

/**
 * The state header protocol (DESIGN.md §4): the server signs the session state with an
 * HMAC only it can make; the browser signs each request with a key derived by ECDH from
 * its device key and the server's key.
 */

export { equalHex, hmacHex } from "~/lib/crypto.server";

export function encodeState(core: SessionStateCore, stateSecret: string): { state: string; hash: string } {
  const state = encodeURIComponent(JSON.stringify(core));
  return { state, hash: hmacHex(stateSecret, state) };
}

export const devicePublicKeySchema = z
  .string()
  .regex(/^0[23][0-9a-f]{64}$/i, "must be a compressed secp256k1 public key")
  .refine((key) => {
    try {
      secp256k1.ProjectivePoint.fromHex(key);
      return true;
    } catch {
      return false;
    }
  }, "is not a point on secp256k1");

/** K = SHA-256 of the x coordinate of the ECDH shared point. Either side can compute it. */
export function signingKey(privateKeyHex: string, publicKeyHex: string): Uint8Array {
  const shared = secp256k1.getSharedSecret(hexToBytes(privateKeyHex), hexToBytes(publicKeyHex), true);
  return sha256(shared.slice(1));
}

export function requestSignature(key: Uint8Array, stateHash: string, method: string, pathAndQuery: string): string {
  return hmacHex(key, `${stateHash}\n${method.toUpperCase()}\n${pathAndQuery}`);
}

export function publicKeyOf(privateKeyHex: string): string {
  return bytesToHex(secp256k1.getPublicKey(hexToBytes(privateKeyHex), true));
}

const stateCoreSchema = z
  .object({
    username: z.string(),
    sid: z.string().min(20).max(100),
    dpk: z.string().nullable(),
  })
  .passthrough();

export type StateHeaderCheck =
  | { kind: "absent" }
  | { kind: "invalid"; reason: string }
  | { kind: "valid"; sessionId: string; username: string; devicePublicKey: string; state: string };

/**
 * Checks the three headers of a request. Only the signature over the state hash, the
 * method and the path with its query proves the request came from the device.
 */
export function checkStateHeaders(
  request: Request,
  config: { stateSecret: string; statePrivateKey: string },
): StateHeaderCheck {
  const state = request.headers.get("state");
  const hash = request.headers.get("state-hash");
  const sig = request.headers.get("state-sig");
  if (state === null && hash === null && sig === null) return { kind: "absent" };
  if (!state || !hash || !sig) return { kind: "invalid", reason: "state, state-hash and state-sig must all be sent" };
  if (state.length > 8_192) return { kind: "invalid", reason: "state is too large" };
  if (!equalHex(hash, hmacHex(config.stateSecret, state)))
    return { kind: "invalid", reason: "state-hash does not match" };

  let parsed: z.infer<typeof stateCoreSchema>;
  try {
    const result = stateCoreSchema.safeParse(JSON.parse(decodeURIComponent(state)));
    if (!result.success) return { kind: "invalid", reason: "state is malformed" };
    parsed = result.data;
  } catch {
    return { kind: "invalid", reason: "state is malformed" };
  }
  if (!parsed.dpk || !devicePublicKeySchema.safeParse(parsed.dpk).success) {
    return { kind: "invalid", reason: "state has no device key" };
  }
  const url = new URL(request.url);
  const expected = requestSignature(
    signingKey(config.statePrivateKey, parsed.dpk),
    hash,
    request.method,
    url.pathname + url.search,
  );
  if (!equalHex(sig, expected)) return { kind: "invalid", reason: "state-sig does not match" };
  return { kind: "valid", sessionId: parsed.sid, username: parsed.username, devicePublicKey: parsed.dpk, state };
}
