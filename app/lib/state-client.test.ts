import { secp256k1 } from "@noble/curves/secp256k1";
import { hmac } from "@noble/hashes/hmac";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_ONLY_MESSAGE } from "~/domain/session-state";
import { apiFetch, replaceState } from "./state-client";

const device = secp256k1.utils.randomPrivateKey();
const devicePublic = bytesToHex(secp256k1.getPublicKey(device, true));
const oldServer = secp256k1.utils.randomPrivateKey();
const newServer = secp256k1.utils.randomPrivateKey();
const publicOf = (key: Uint8Array) => bytesToHex(secp256k1.getPublicKey(key, true));

/** What the server checks: HMAC(SHA-256(ECDH), hash \n method \n path). */
function signedBy(server: Uint8Array, headers: Headers, method: string, path: string): boolean {
  const k = sha256(secp256k1.getSharedSecret(server, hexToBytes(devicePublic), true).slice(1));
  const message = new TextEncoder().encode(`${headers.get("state-hash")}\n${method}\n${path}`);
  return headers.get("state-sig") === bytesToHex(hmac(sha256, k, message));
}

function stateFor(dpk: string) {
  return encodeURIComponent(JSON.stringify({ username: "member", agent: null, dpk }));
}

let calls: { path: string; headers: Headers }[] = [];

beforeEach(() => {
  const storage = new Map<string, string>();
  const localStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  };
  const win = { localStorage, location: { origin: "https://members.example.org" } } as Record<string, unknown>;
  win.self = win;
  win.top = win;
  vi.stubGlobal("window", win);
  localStorage.setItem("deviceKey", bytesToHex(device));
  localStorage.setItem("serverKey", publicOf(oldServer));
  calls = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("apiFetch", () => {
  it("refuses anything but this site's /api/* calls with the spec's message", async () => {
    await expect(apiFetch("/profile")).rejects.toThrow(API_ONLY_MESSAGE);
    await expect(apiFetch("https://elsewhere.example.net/api/config")).rejects.toThrow(API_ONLY_MESSAGE);
  });

  it("signs the call, and signs it again with the server's new key when the old one is refused", async () => {
    replaceState(stateFor(devicePublic), "ab".repeat(32));
    vi.stubGlobal(
      "fetch",
      vi.fn(async (path: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        calls.push({ path, headers });
        if (path === "/api/config") return Response.json({ statePublicKey: publicOf(newServer) });
        const ok = signedBy(newServer, headers, "GET", "/api/login/recheck?x=1");
        return new Response(null, { status: ok ? 200 : 401 });
      }),
    );
    const response = await apiFetch("/api/login/recheck?x=1");
    expect(response.status).toBe(200);
    expect(calls.map((c) => c.path)).toEqual(["/api/login/recheck?x=1", "/api/config", "/api/login/recheck?x=1"]);
    expect(signedBy(oldServer, calls[0]!.headers, "GET", "/api/login/recheck?x=1")).toBe(true);
  });

  it("does not send a state made for another device key, so the cookie decides", async () => {
    replaceState(stateFor(publicOf(secp256k1.utils.randomPrivateKey())), "cd".repeat(32));
    vi.stubGlobal(
      "fetch",
      vi.fn(async (path: string, init: RequestInit = {}) => {
        calls.push({ path, headers: new Headers(init.headers) });
        return new Response(null, { status: 200 });
      }),
    );
    await apiFetch("/api/entry/nol-editors");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.has("state")).toBe(false);
    expect(calls[0]!.headers.has("state-sig")).toBe(false);
  });
});
