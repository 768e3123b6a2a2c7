import { z } from "zod";

/**
 * The rules of a second factor (passkeys, authenticator codes, recovery codes): who must have
 * one, when a sensitive action asks for it again, how long a remembered device skips it, and
 * how a typed code is read. The I/O (WebAuthn ceremonies, the secrets, the audit) is the
 * second-factor service's.
 */

/** Whom `MFA_REQUIRED_FOR` requires a second factor of. */
export const MFA_POLICIES = ["admin", "all", "none"] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];
export const mfaPolicySchema = z.enum(MFA_POLICIES);

/** Whether the policy requires a second factor of this account. */
export function factorRequired(policy: MfaPolicy, account: { isAdmin: boolean }): boolean {
  if (policy === "all") return true;
  if (policy === "admin") return account.isAdmin;
  return false;
}

/** How long a second factor passed stands for the sensitive actions that ask for a fresh one. */
export const STEP_UP_MINUTES = 10;

/** The actions that ask for a second factor passed within the last STEP_UP_MINUTES. */
export const SENSITIVE_ACTIONS = [
  "agent-mode",
  "grant-membership",
  "grant-credits",
  "export",
  "import",
  "coupon-change",
  "template-change",
  "role-change",
  "factor-change",
  "member-erase",
  // A backup holds every member's data, their sessions and the audit log, in one file.
  "backup",
] as const;
export type SensitiveAction = (typeof SENSITIVE_ACTIONS)[number];

/** Whether a second factor passed at `passedAt` still stands for a sensitive action at `now`. */
export function stepUpFresh(passedAt: Date | null, now: Date, minutes = STEP_UP_MINUTES): boolean {
  if (!passedAt) return false;
  const age = now.getTime() - passedAt.getTime();
  // A time ahead of the clock (another server's) counts as now, never as fresh for longer.
  return age < minutes * 60_000 && age > -60_000;
}

/** How long a device whose key passed a second factor may skip it. */
export const REMEMBER_DEVICE_DAYS = 30;

export function rememberedUntil(passedAt: Date, days = REMEMBER_DEVICE_DAYS): Date {
  return new Date(passedAt.getTime() + days * 86_400_000);
}

/** Whether a remembered device (not revoked) may skip the second factor at `now`. */
export function deviceRemembered(device: { until: Date; revokedAt: Date | null } | null, now: Date): boolean {
  return device !== null && device.revokedAt === null && device.until.getTime() > now.getTime();
}

/**
 * An authenticator code's time step is used once: a code is refused when its step is not later
 * than the last step accepted for the same factor (the same code replayed within its window, or
 * an older one).
 */
export function totpStepAccepted(step: number, lastStep: number | null): boolean {
  return lastStep === null || step > lastStep;
}

/** Six digits as an authenticator app shows them, spaces allowed ("123 456"). */
export const totpCodeSchema = z
  .string({ required_error: "Enter the 6-digit code from your authenticator app" })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app"));

/** How many recovery codes a set holds, and the letters they are made of (no 0/o, 1/l/i). */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A recovery code as shown: two groups of five, "k7m2q-x9p3d". */
export function formatRecoveryCode(raw: string): string {
  return `${raw.slice(0, 5)}-${raw.slice(5, 10)}`;
}

/** A recovery code as typed, read the way it is stored: case, spaces and dashes ignored. */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]+/g, "");
  if (code.length !== 10) return null;
  for (const char of code) if (!RECOVERY_ALPHABET.includes(char)) return null;
  return code;
}

/**
 * A recovery code from random bytes, each mapped into the alphabet without bias; null when too
 * few of them were usable (the caller draws again).
 */
export function recoveryCodeFrom(bytes: Uint8Array): string | null {
  let code = "";
  for (const byte of bytes) {
    if (code.length === 10) break;
    // 248 = 8 × 31: the bytes past it would favour the first letters, and are skipped.
    if (byte < 248) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  }
  return code.length === 10 ? code : null;
}

/**
 * What a signed-in person's second factor lets them reach where the policy requires one: all
 * of it ("ok"), nothing until they set one up ("setup"), or nothing until this session passes
 * it ("verify": a session begun without it, such as the learning site's hand-off).
 */
export type FactorGate = "ok" | "setup" | "verify";

export function factorGate(
  policy: MfaPolicy,
  account: { isAdmin: boolean; hasFactor: boolean; factorPassed: boolean },
): FactorGate {
  if (!factorRequired(policy, account)) return "ok";
  if (!account.hasFactor) return "setup";
  return account.factorPassed ? "ok" : "verify";
}

/** Each sensitive action in words, as "Confirm it is you to …" ends. */
export const SENSITIVE_ACTION_WORDS: Record<SensitiveAction, string> = {
  "agent-mode": "act as a member",
  "grant-membership": "grant a membership",
  "grant-credits": "grant credits",
  export: "export records",
  import: "import members",
  "coupon-change": "change a coupon",
  "template-change": "change a template",
  "role-change": "change a member's role",
  "factor-change": "change your second factors",
  "member-erase": "erase a member",
  backup: "make, download or delete a backup",
};

export { STEP_UP_CODE, STEP_UP_PASSKEY } from "./second-factor-words";
