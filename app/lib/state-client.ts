import { acceptStateUpdate, type SessionStateCore } from "~/domain/session-state";

/**
 * The browser side of the state header protocol (DESIGN.md §4). Runs in the browser only:
 * call these from effects and event handlers.
 */

const KEY_STORAGE = "deviceKey";
const STATE_STORAGE = "state";
const HASH_STORAGE = "stateHash";
const SERVER_KEY_STORAGE = "serverKey";

export function inFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

const memory = new Map<string, string>();
type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;
const memoryStorage: KeyValueStore = {
  getItem: (key) => memory.get(key) ?? null,
  setItem: (key, value) => {
    memory.set(key, value);
  },
  removeItem: (key) => {
    memory.delete(key);
  },
};

/**
 * localStorage outside a frame; sessionStorage inside one, where the learning site owns the
 * tab. A browser that refuses storage to a third-party frame gets memory for this page.
 */
function store(): KeyValueStore {
  try {
    const storage = inFrame() ? window.sessionStorage : window.localStorage;
    storage.getItem(KEY_STORAGE);
    return storage;
  } catch {
    return memoryStorage;
  }
}

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

export type StoredState = { state: string; hash: string; core: SessionStateCore };

export function storedState(): StoredState | null {
  const state = store().getItem(STATE_STORAGE);
  const hash = store().getItem(HASH_STORAGE);
  if (!state || !hash) return null;
  try {
    return { state, hash, core: JSON.parse(decodeURIComponent(state)) as SessionStateCore };
  } catch {
    return null;
  }
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

/** The page's own state, from the server session that served it: always taken. */
export function replaceState(state: string, hash: string): void {
  store().setItem(STATE_STORAGE, state);
  store().setItem(HASH_STORAGE, hash);
}

export function forgetState(): void {
  store().removeItem(STATE_STORAGE);
  store().removeItem(HASH_STORAGE);
}

export class StateRejectedError extends Error {}

/**
 * fetch() for the JSON API: signs the request with the stored state and device key, and
 * keeps the state the answer carries. Without a key it sends no state and warns.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("accept", "application/json");
  const current = storedState();
  if (current) {
    const key = store().getItem(KEY_STORAGE);
    const server = await serverKey();
    if (!key || !server) {
      console.warn("The signing key is missing: the request is sent without the signed state");
    } else {
      const { secp256k1, sha256, hmac, hexToBytes } = await curves();
      const shared = secp256k1.getSharedSecret(hexToBytes(key), hexToBytes(server), true);
      const k = sha256(shared.slice(1));
      const url = new URL(path, window.location.origin);
      const method = (init.method ?? "GET").toUpperCase();
      const message = new TextEncoder().encode(`${current.hash}\n${method}\n${url.pathname}${url.search}`);
      headers.set("state", current.state);
      headers.set("state-hash", current.hash);
      headers.set("state-sig", hex(hmac(sha256, k, message)));
    }
  }
  const response = await fetch(path, { ...init, headers, credentials: "same-origin" });
  const state = response.headers.get("state");
  const hash = response.headers.get("state-hash");
  if (state && hash && !keepState(state, hash).accepted) throw new StateRejectedError("username-changed");
  return response;
}
