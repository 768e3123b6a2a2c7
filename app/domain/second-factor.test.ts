import { describe, expect, it } from "vitest";
import {
  deviceRemembered,
  factorGate,
  factorRequired,
  SENSITIVE_ACTION_WORDS,
  SENSITIVE_ACTIONS,
  formatRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_ALPHABET,
  recoveryCodeFrom,
  rememberedUntil,
  stepUpFresh,
  totpCodeSchema,
  totpStepAccepted,
} from "./second-factor";
import { factorEventText } from "./second-factor-words";

const at = (iso: string) => new Date(iso);

describe("who must have a second factor", () => {
  it("follows MFA_REQUIRED_FOR: admins, everyone, or no one", () => {
    expect(factorRequired("admin", { isAdmin: true })).toBe(true);
    expect(factorRequired("admin", { isAdmin: false })).toBe(false);
    expect(factorRequired("all", { isAdmin: false })).toBe(true);
    expect(factorRequired("none", { isAdmin: true })).toBe(false);
  });
});

describe("a fresh second factor before a sensitive action", () => {
  const now = at("2026-11-28T12:00:00Z");
  it("stands for ten minutes after it was passed, not a moment longer", () => {
    expect(stepUpFresh(null, now)).toBe(false);
    expect(stepUpFresh(at("2026-11-28T11:50:01Z"), now)).toBe(true);
    expect(stepUpFresh(at("2026-11-28T11:50:00Z"), now)).toBe(false);
    expect(stepUpFresh(at("2026-11-28T11:00:00Z"), now)).toBe(false);
  });
  it("takes a time slightly ahead of the clock as now, and one far ahead as not passed", () => {
    expect(stepUpFresh(at("2026-11-28T12:00:30Z"), now)).toBe(true);
    expect(stepUpFresh(at("2026-11-28T13:00:00Z"), now)).toBe(false);
  });
});

describe("a remembered device", () => {
  const passed = at("2026-11-01T00:00:00Z");
  const until = rememberedUntil(passed);
  it("skips the second factor for thirty days, until it is revoked", () => {
    expect(until.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(deviceRemembered({ until, revokedAt: null }, at("2026-11-30T23:59:59Z"))).toBe(true);
    expect(deviceRemembered({ until, revokedAt: null }, until)).toBe(false);
    expect(deviceRemembered({ until, revokedAt: at("2026-11-02T00:00:00Z") }, at("2026-11-03T00:00:00Z"))).toBe(false);
    expect(deviceRemembered(null, at("2026-11-03T00:00:00Z"))).toBe(false);
  });
});

describe("authenticator codes", () => {
  it("takes each time step once: a replayed or older code is refused", () => {
    expect(totpStepAccepted(100, null)).toBe(true);
    expect(totpStepAccepted(101, 100)).toBe(true);
    expect(totpStepAccepted(100, 100)).toBe(false);
    expect(totpStepAccepted(99, 100)).toBe(false);
  });
  it("reads six digits, spaces allowed, and says what it wants otherwise", () => {
    expect(totpCodeSchema.parse("123 456")).toBe("123456");
    for (const bad of ["12345", "1234567", "12a456", ""]) {
      const result = totpCodeSchema.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("Enter the 6-digit code from your authenticator app");
    }
  });
});

describe("recovery codes", () => {
  it("are read whatever their case, spaces and dashes, and refused when they cannot be one", () => {
    expect(formatRecoveryCode("k7m2qx9p3d")).toBe("k7m2q-x9p3d");
    expect(normalizeRecoveryCode(" K7M2Q-x9p3d ")).toBe("k7m2qx9p3d");
    expect(normalizeRecoveryCode("k7m2q x9p3d")).toBe("k7m2qx9p3d");
    expect(normalizeRecoveryCode("k7m2q-x9p3")).toBeNull();
    // 0, o, 1, l and i are never in a code: a typed one is not a code.
    expect(normalizeRecoveryCode("k7m2q-x9p30")).toBeNull();
    expect(normalizeRecoveryCode("l7m2q-x9p3d")).toBeNull();
  });
  it("are drawn from the alphabet without bias, skipping the bytes past its last whole multiple", () => {
    expect(RECOVERY_ALPHABET).toHaveLength(31);
    expect(recoveryCodeFrom(Uint8Array.from([0, 30, 31, 247, 248, 255, 1, 2, 3, 4, 5, 6]))).toBe(
      `${RECOVERY_ALPHABET[0]}${RECOVERY_ALPHABET[30]}${RECOVERY_ALPHABET[0]}${RECOVERY_ALPHABET[247 % 31]}bcdefg`,
    );
    expect(recoveryCodeFrom(Uint8Array.from([250, 251, 252, 1, 2]))).toBeNull();
  });
});

describe("the gate of the policy", () => {
  it("lets in whom the policy requires nothing of", () => {
    expect(factorGate("admin", { isAdmin: false, hasFactor: false, factorPassed: false })).toBe("ok");
    expect(factorGate("none", { isAdmin: true, hasFactor: false, factorPassed: false })).toBe("ok");
  });

  it("sends one who must have a factor to set one up, then to pass it in this session", () => {
    expect(factorGate("admin", { isAdmin: true, hasFactor: false, factorPassed: false })).toBe("setup");
    expect(factorGate("admin", { isAdmin: true, hasFactor: true, factorPassed: false })).toBe("verify");
    expect(factorGate("admin", { isAdmin: true, hasFactor: true, factorPassed: true })).toBe("ok");
    expect(factorGate("all", { isAdmin: false, hasFactor: true, factorPassed: false })).toBe("verify");
  });

  it("names every sensitive action in words", () => {
    for (const action of SENSITIVE_ACTIONS) expect(SENSITIVE_ACTION_WORDS[action]).toMatch(/^[a-z]/);
  });
});

describe("what the member is told", () => {
  const words = {
    username: "ana",
    supportEmail: "help@example.org",
    securityUrl: "https://x.example/profile/security",
  };

  it("tells of a factor added, removed or reset, with what to do if it was not them", () => {
    const added = factorEventText({ event: "added", kind: "passkey", name: "Phone" }, words);
    expect(added.subject).toBe("A second factor was added to your account");
    expect(added.text).toContain('A passkey ("Phone") was added');
    expect(added.text).toContain("If this was not you, change your password now");
    expect(factorEventText({ event: "removed", kind: "totp" }, words).text).toContain(
      "Your authenticator app was removed",
    );
    expect(factorEventText({ event: "reset" }, words).text).toContain("every session was signed out");
  });

  it("says a recovery code was used, and a sign-in with a factor", () => {
    expect(factorEventText({ event: "used", kind: "recovery", use: "sign-in" }, words).subject).toBe(
      "A recovery code was used",
    );
    expect(factorEventText({ event: "used", kind: "passkey", use: "sign-in" }, words).text).toContain(
      "Someone signed in to your account with a passkey.",
    );
  });
});
