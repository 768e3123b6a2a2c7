import { and, eq, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { recoveryCodes, userFactors } from "~/db/schema";
import { communityFor } from "~/domain/community";
import { invalid, tooMany } from "~/domain/errors";
import { normalizeRecoveryCode, totpCodeSchema, totpStepAccepted } from "~/domain/second-factor";
import { seal, unseal } from "~/lib/crypto.server";
import { audit } from "../audit.server";
import { hitRateLimit, rateLimitCount } from "../rate-limit.server";
import { issueToken } from "../tokens.server";
import { tellMember, type FactorUse } from "./records.server";
import { rekeyRecoveryCodes, storedCode } from "./recovery-codes.server";

/**
 * Authenticator codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, one step either side) and
 * recovery codes: set up, checked once each, and rate-limited as passwords are (decision 045).
 * Recovery codes are stored under the server's key, and count their failures apart (decision 062).
 */

const SEAL_PURPOSE = "totp-secret";
/** A set-up form's secret is sealed for its member, for this long. */
const SETUP_PURPOSE = "totp-setup";
const SETUP_MINUTES = 30;
const PERIOD = 30;

/** Failed codes for one account before it must wait, as failed passwords (auth.server.ts). */
export const CODE_FAILURES = { hits: 5, windowSeconds: 900 };
/**
 * Wrong recovery codes from one address before it must wait: counted apart from the app's, so
 * that whoever holds the password and types wrong codes elsewhere does not keep the member out.
 * Ten letters of 31 stay out of reach of guessing at this rate, even from many addresses.
 */
export const RECOVERY_FAILURES = { hits: 10, windowSeconds: 900 };
/** A reset link in the lock-out's e-mail works this long, as one asked for at /login/help. */
const RESET_LINK_MS = 3_600_000;

export const WRONG_CODE_MESSAGE = "That code is not right. Check the code and try again.";
export const USED_RECOVERY_CODE_MESSAGE =
  "That code has been used already: each recovery code works once. Use another.";
export const USED_TOTP_CODE_MESSAGE = "That code has been used already. Wait for the next code in your app.";
export const CODES_LOCKED_MESSAGE =
  "Too many wrong codes. Wait 15 minutes and try again, or use a recovery code or a passkey.";
export const RECOVERY_LOCKED_MESSAGE =
  "Too many wrong recovery codes from your network. Wait 15 minutes and try again.";

/** Where a typed code comes from: at a sign-in, every wrong one is audited and a lock-out told. */
export type CodeAttempt = { use: FactorUse; ip: string | null };
const QUIET: CodeAttempt = { use: "step-up", ip: null };

type Counter = { kind: "totp" | "recovery"; key: string; hits: number; windowSeconds: number };

function counterOf(kind: Counter["kind"], userId: string, ip: string | null): Counter {
  return kind === "totp"
    ? { kind, key: `factor-fail:${userId}`, ...CODE_FAILURES }
    : { kind, key: `recovery-fail:${userId}:${ip ?? "unknown"}`, ...RECOVERY_FAILURES };
}

function totpOf(secretBase32: string, label: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/**
 * The authenticator app's set-up: a new secret (or the one the form sealed, shown again after
 * a wrong first code), as text and as a QR code, sealed for the confirming form.
 */
export async function totpSetup(
  services: AppServices,
  member: { id: string; username: string },
  sealed?: string | null,
) {
  const kept = sealed ? setupSecret(services, member.id, sealed) : null;
  const secret = kept ?? new Secret({ size: 20 }).base32;
  const issuer = communityFor(services.config.community).name;
  const uri = totpOf(secret, member.username, issuer).toString();
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    /** The secret in groups of four, as typed into an app without a camera. */
    secret: secret.match(/.{1,4}/g)!.join(" "),
    uri,
    qrSvg,
    sealed: seal(
      services.config.sessionSecret,
      SETUP_PURPOSE,
      JSON.stringify({ secret, member: member.id, until: Date.now() + SETUP_MINUTES * 60_000 }),
    ),
  };
}

/** The secret a set-up form sealed for this member, while it stands; null otherwise. */
function setupSecret(services: AppServices, memberId: string, sealed: string): string | null {
  const plain = unseal(services.config.sessionSecret, SETUP_PURPOSE, sealed);
  if (!plain) return null;
  try {
    const setup = JSON.parse(plain) as { secret?: unknown; member?: unknown; until?: unknown };
    const standing = typeof setup.until === "number" && setup.until > Date.now();
    return standing && setup.member === memberId && typeof setup.secret === "string" ? setup.secret : null;
  } catch {
    return null;
  }
}

/** The time step a code matches now (one step either side), or null. */
function matchingStep(secretBase32: string, code: string, now: number): number | null {
  const totp = totpOf(secretBase32, "", "");
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/**
 * Saves the authenticator app when its first code matches the sealed secret of the set-up
 * form. Answers the new factor's id; a wrong code or a form that was not ours is refused.
 */
export async function confirmTotp(
  services: AppServices,
  userId: string,
  input: { sealed: string; code: string },
): Promise<string> {
  const secret = setupSecret(services, userId, input.sealed);
  if (!secret) throw invalid("This set-up has expired. Start again.");
  const counter = counterOf("totp", userId, null);
  await refuseWhileLimited(services, userId, counter, QUIET);
  const step = matchingStep(secret, input.code, Date.now());
  if (step === null) throw await wrongCode(services, userId, counter, QUIET);
  const [row] = await services.db
    .insert(userFactors)
    .values({
      userId,
      kind: "totp",
      name: "Authenticator app",
      secretSealed: seal(services.config.sessionSecret, SEAL_PURPOSE, secret),
      lastStep: step,
      lastUsedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: userFactors.id });
  if (!row) throw invalid("An authenticator app is already set up. Remove it first to set up another.");
  return row.id;
}

async function refuseWhileLimited(services: AppServices, userId: string, counter: Counter, attempt: CodeAttempt) {
  if ((await rateLimitCount(services.db, counter.key, counter.windowSeconds)) < counter.hits) return;
  // The log shows the tries a lock-out turned away too: someone kept at it.
  if (attempt.use === "sign-in") await failedAtSignIn(services, userId, attempt, { kind: counter.kind, locked: true });
  throw tooMany(counter.kind === "totp" ? CODES_LOCKED_MESSAGE : RECOVERY_LOCKED_MESSAGE, counter.windowSeconds);
}

/**
 * Counts a wrong code and answers the error to throw. A code used already counts as wrong too
 * (it does not sign in), but says so: the member typed the right code a second time. Wrong
 * codes after a right password are the surest sign that someone else knows it: at a sign-in
 * each is audited, and the lock-out they start is audited and e-mailed.
 */
async function wrongCode(
  services: AppServices,
  userId: string,
  counter: Counter,
  attempt: CodeAttempt,
  message = WRONG_CODE_MESSAGE,
) {
  const { db } = services;
  await hitRateLimit(db, counter.key, counter.hits, counter.windowSeconds);
  if (attempt.use === "sign-in") {
    await failedAtSignIn(services, userId, attempt, { kind: counter.kind });
    if ((await rateLimitCount(db, counter.key, counter.windowSeconds)) >= counter.hits) {
      await lockedOut(services, userId, counter, attempt);
    }
  }
  return invalid(message, { code: [message] });
}

const actorAt = (userId: string, attempt: CodeAttempt) => ({ actorUserId: userId, agentUserId: null, ip: attempt.ip });

async function failedAtSignIn(
  services: AppServices,
  userId: string,
  attempt: CodeAttempt,
  data: Record<string, unknown>,
) {
  await audit(services.db, actorAt(userId, attempt), "login.factor.failed", "user", userId, data);
}

/**
 * A lock-out begins: audited, and the member e-mailed with a link to set a new password. Once
 * per lock-out, however many requests reach it together: the first to count in its window tells.
 */
async function lockedOut(services: AppServices, userId: string, counter: Counter, attempt: CodeAttempt) {
  const { db, config } = services;
  if (!(await hitRateLimit(db, `${counter.key}:told`, 1, counter.windowSeconds)).ok) return;
  await audit(db, actorAt(userId, attempt), "login.factor.locked", "user", userId, {
    kind: counter.kind,
    failures: counter.hits,
  });
  const token = await issueToken(db, "password_reset", userId, RESET_LINK_MS);
  await tellMember(services, userId, {
    event: "locked",
    kind: counter.kind,
    failures: counter.hits,
    resetUrl: `${config.baseUrl}/login/reset?token=${token}`,
  });
}

/** A code as typed: six digits from an app, or a recovery code. */
export const typedCodeSchema = z
  .string({ required_error: "Enter a code" })
  .trim()
  .min(1, "Enter the 6-digit code from your authenticator app, or a recovery code")
  .max(40, "That is not a code we gave");

/**
 * Checks a typed code: an authenticator code (each time step accepted once) or a recovery code
 * (each used once). Answers which it was; a wrong code is counted and refused with a field error.
 * Recovery codes have a count of their own: a lock-out of the app's codes leaves them open.
 */
export async function checkTypedCode(
  services: AppServices,
  userId: string,
  typed: string,
  now = Date.now(),
  attempt: CodeAttempt = QUIET,
): Promise<{ kind: "totp" | "recovery"; factorId: string | null }> {
  const { db } = services;
  const digits = totpCodeSchema.safeParse(typed);
  const code = digits.success ? null : normalizeRecoveryCode(typed);
  const counter = counterOf(code ? "recovery" : "totp", userId, attempt.ip);
  await refuseWhileLimited(services, userId, counter, attempt);
  if (digits.success) {
    const [factor] = await db
      .select({ id: userFactors.id, secretSealed: userFactors.secretSealed, lastStep: userFactors.lastStep })
      .from(userFactors)
      .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, "totp")));
    const secret = factor?.secretSealed
      ? unseal(services.config.sessionSecret, SEAL_PURPOSE, factor.secretSealed)
      : null;
    const step = secret ? matchingStep(secret, digits.data, now) : null;
    if (factor && step !== null && totpStepAccepted(step, factor.lastStep)) {
      // The step is taken once even by two requests at the same moment.
      const [taken] = await db
        .update(userFactors)
        .set({ lastStep: step })
        .where(
          and(
            eq(userFactors.id, factor.id),
            sql`(${userFactors.lastStep} is null or ${userFactors.lastStep} < ${step})`,
          ),
        )
        .returning({ id: userFactors.id });
      if (taken) return { kind: "totp", factorId: factor.id };
    }
    const used = factor !== undefined && step !== null;
    throw await wrongCode(services, userId, counter, attempt, used ? USED_TOTP_CODE_MESSAGE : WRONG_CODE_MESSAGE);
  }
  if (code) {
    await rekeyRecoveryCodes(services, userId);
    const hash = storedCode(services.config, code);
    const [used] = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hash), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    if (used) return { kind: "recovery", factorId: null };
    const [spent] = await db
      .select({ id: recoveryCodes.id })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hash)));
    if (spent) throw await wrongCode(services, userId, counter, attempt, USED_RECOVERY_CODE_MESSAGE);
  }
  throw await wrongCode(services, userId, counter, attempt);
}

/** Removes the member's authenticator app; answers whether there was one. */
export async function removeTotp(db: Database, userId: string): Promise<boolean> {
  const removed = await db
    .delete(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, "totp")))
    .returning({ id: userFactors.id });
  return removed.length > 0;
}
