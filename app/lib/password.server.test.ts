import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.server";

// Each hash takes 128 MiB and a few hundred milliseconds alone; beside the other suites on two
// cores it can take seconds.
describe("password hashing", { timeout: 30_000 }, () => {
  it("verifies the password it hashed and refuses another", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
  });

  it("salts each hash, so the same password never hashes the same twice", async () => {
    const [a, b] = await Promise.all([hashPassword("same-password"), hashPassword("same-password")]);
    expect(a).not.toBe(b);
  });

  it("refuses a malformed stored hash instead of throwing", async () => {
    expect(await verifyPassword("x", "plain-text")).toBe(false);
    expect(await verifyPassword("x", "scrypt$0$8$1$AA==$AA==")).toBe(false);
  });
});
