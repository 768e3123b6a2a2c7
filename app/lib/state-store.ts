import type { SessionStateCore } from "~/domain/session-state";

/**
 * The stored side of the state header protocol (DESIGN.md §4): where the browser keeps the
 * session's state, read and replaced by every page. The signing that sends it (state-client)
 * loads with the pages that call the API.
 */

export const KEY_STORAGE = "deviceKey";
export const STATE_STORAGE = "state";
export const HASH_STORAGE = "stateHash";
export const SERVER_KEY_STORAGE = "serverKey";

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
export function store(): KeyValueStore {
  try {
    const storage = inFrame() ? window.sessionStorage : window.localStorage;
    storage.getItem(KEY_STORAGE);
    return storage;
  } catch {
    return memoryStorage;
  }
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
