import { acceptStateUpdate, API_ONLY_MESSAGE, type SessionStateCore } from "~/domain/session-state";
import {
  HASH_STORAGE,
  KEY_STORAGE,
  SERVER_KEY_STORAGE,
  STATE_STORAGE,
  StateRejectedError,
  store,
  storedState,
  type StoredState,
} from "./state-store";

export { forgetState, inFrame, replaceState, StateRejectedError, storedState, type StoredState } from "./state-store";

/**
 * The browser side of the state header protocol (DESIGN.md §4). Runs in the browser only:
 * call these from effects and event handlers.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

async function curves() {
  const [{ secp256k1 }, { sha256 }, { hmac }, { hexToBytes }] = await Promise.all([
    import("@noble/curves/secp256k1"),
    import("@noble/hashes/sha2"),
    import("@noble/hashes/hmac"),
    import("@noble/hashes/utils"),
  ]);
  return { secp256k1, sha256, hmac, hexToBytes };
}

/** The device's key pair, made once per browser (per tab inside a frame). */
export async function deviceKey(): Promise<{ privateKey: string; publicKey: string }> {
  const { secp256k1, hexToBytes } = await curves();
  let privateKey = store().getItem(KEY_STORAGE);
  if (!privateKey || !/^[0-9a-f]{64}$/.test(privateKey)) {
    privateKey = hex(secp256k1.utils.randomPrivateKey());
    store().setItem(KEY_STORAGE, privateKey);
  }
  return { privateKey, publicKey: hex(secp256k1.getPublicKey(hexToBytes(privateKey), true)) };
}

async function serverKey(): Promise<string | null> {
  const cached = store().getItem(SERVER_KEY_STORAGE);
  if (cached) return cached;
  const response = await fetch("/api/config", { headers: { accept: "application/json" } });
  if (!response.ok) return null;
  const { statePublicKey } = (await response.json()) as { statePublicKey?: string };
  if (!statePublicKey) return null;
  store().setItem(SERVER_KEY_STORAGE, statePublicKey);
  return statePublicKey;
}

/** Keeps a new state unless it would change the member without an agent (spec §5). */
export function keepState(state: string, hash: string): { accepted: boolean } {
  let core: SessionStateCore;
  try {
    core = JSON.parse(decodeURIComponent(state)) as SessionStateCore;
  } catch {
    return { accepted: false };
  }
  const verdict = acceptStateUpdate(storedState()?.core ?? null, core);
  if (!verdict.accept) return { accepted: false };
  store().setItem(STATE_STORAGE, state);
  store().setItem(HASH_STORAGE, hash);
  return { accepted: true };
}

/** The headers of a signed call: the state, its hash, and a signature over method and path. */
async function signedHeaders(
  init: RequestInit,
  url: URL,
  current: StoredState,
  privateKey: string,
  server: string,
): Promise<Headers> {
  const headers = new Headers(init.headers);
  const { secp256k1, sha256, hmac, hexToBytes } = await curves();
  const shared = secp256k1.getSharedSecret(hexToBytes(privateKey), hexToBytes(server), true);
  const k = sha256(shared.slice(1));
  const method = (init.method ?? "GET").toUpperCase();
  const message = new TextEncoder().encode(`${current.hash}\n${method}\n${url.pathname}${url.search}`);
  headers.set("state", current.state);
  headers.set("state-hash", current.hash);
  headers.set("state-sig", hex(hmac(sha256, k, message)));
  return headers;
}

/** The stored state, when it was made for this device's key; a state of another key is not sent. */
async function signableState(): Promise<{ current: StoredState; privateKey: string } | null> {
  const current = storedState();
  if (!current) return null;
  const privateKey = store().getItem(KEY_STORAGE);
  if (!privateKey || !/^[0-9a-f]{64}$/.test(privateKey)) {
    console.warn("The signing key is missing: the request is sent without the signed state");
    return null;
  }
  const { secp256k1, hexToBytes } = await curves();
  if (current.core.dpk !== hex(secp256k1.getPublicKey(hexToBytes(privateKey), true))) return null;
  return { current, privateKey };
}

/**
 * fetch() for the JSON API: signs the request with the stored state and device key, and
 * keeps the state the answer carries. Only this site's /api/* calls carry the state. When
 * a signed call is refused because the server's key changed, the key is read again and the
 * call made once more.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(path, window.location.origin);
  if (url.origin !== window.location.origin || !url.pathname.startsWith("/api/")) throw new Error(API_ONLY_MESSAGE);
  const send = (headers: Headers) => {
    headers.set("accept", "application/json");
    return fetch(path, { ...init, headers, credentials: "same-origin" });
  };
  const signable = await signableState();
  const server = signable ? await serverKey() : null;
  let response: Response;
  if (signable && server) {
    response = await send(await signedHeaders(init, url, signable.current, signable.privateKey, server));
    if (response.status === 401) {
      store().removeItem(SERVER_KEY_STORAGE);
      const fresh = await serverKey();
      if (fresh && fresh !== server) {
        await response.body?.cancel();
        response = await send(await signedHeaders(init, url, signable.current, signable.privateKey, fresh));
      }
    }
  } else {
    if (signable) console.warn("The signing key is missing: the request is sent without the signed state");
    response = await send(new Headers(init.headers));
  }
  const state = response.headers.get("state");
  const hash = response.headers.get("state-hash");
  if (state && hash && !keepState(state, hash).accepted) throw new StateRejectedError("username-changed");
  return response;
}
