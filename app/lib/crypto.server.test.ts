import { describe, expect, it } from "vitest";
import { cspNonce, equalHex } from "./crypto.server";

describe("cspNonce", () => {
  it("gives 128-bit base64 nonces, none twice, across the pool's refills", () => {
    const nonces = Array.from({ length: 1_000 }, () => cspNonce());
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(nonces.every((nonce) => /^[A-Za-z0-9+/]{22}==$/.test(nonce))).toBe(true);
    expect(new Set(nonces).size).toBe(nonces.length);
  });
});

describe("equalHex", () => {
  it("compares hex strings of one length, and nothing else is equal", () => {
    expect(equalHex("ab01", "AB01")).toBe(true);
    expect(equalHex("ab01", "ab02")).toBe(false);
    expect(equalHex("ab01", "ab0")).toBe(false);
    expect(equalHex("zz", "zz")).toBe(false);
  });
});
