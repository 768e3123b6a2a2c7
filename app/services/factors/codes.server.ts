import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { recoveryCodes, userFactors } from "~/db/schema";
import { communityFor } from "~/domain/community";
import { invalid, tooMany } from "~/domain/errors";
import {
  formatRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  recoveryCodeFrom,
  totpCodeSchema,
  totpStepAccepted,
} from "~/domain/second-factor";
import { seal, unseal } from "~/lib/crypto.server";
import { hitRateLimit, rateLimitCount } from "../rate-limit.server";

/**
 * Authenticator codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, one step either side) and
 * recovery codes: set up, checked once each, and rate-limited as passwords are (decision 045).
 */

const SEAL_PURPOSE = "totp-secret";
/** A set-up form's secret is sealed for its member, for this long. */
const SETUP_PURPOSE = "totp-setup";
const SETUP_MINUTES = 30;
const PERIOD = 30;

/** Failed codes for one account before it must wait, as failed passwords (auth.server.ts). */
export const CODE_FAILURES = { hits: 5, windowSeconds: 900 };

export const WRONG_CODE_MESSAGE = "That code is not right. Check the code and try again.";

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
  await refuseWhileLimited(services.db, userId);
  const step = matchingStep(secret, input.code, Date.now());
  if (step === null) throw await wrongCode(services.db, userId);
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

async function refuseWhileLimited(db: Database, userId: string): Promise<void> {
  const key = `factor-fail:${userId}`;
  if ((await rateLimitCount(db, key, CODE_FAILURES.windowSeconds)) >= CODE_FAILURES.hits) {
    throw tooMany("Too many wrong codes. Wait 15 minutes and try again.", CODE_FAILURES.windowSeconds);
  }
}

/** Counts a wrong code and answers the error to throw. */
async function wrongCode(db: Database, userId: string) {
  await hitRateLimit(db, `factor-fail:${userId}`, CODE_FAILURES.hits, CODE_FAILURES.windowSeconds);
  return invalid(WRONG_CODE_MESSAGE, { code: [WRONG_CODE_MESSAGE] });
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
 */
export async function checkTypedCode(
  services: AppServices,
  userId: string,
  typed: string,
  now = Date.now(),
): Promise<{ kind: "totp" | "recovery"; factorId: string | null }> {
  const { db } = services;
  await refuseWhileLimited(db, userId);
  const digits = totpCodeSchema.safeParse(typed);
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
    throw await wrongCode(db, userId);
  }
  const code = normalizeRecoveryCode(typed);
  if (code) {
    const [used] = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(code)), isNull(recoveryCodes.usedAt)),
      )
      .returning({ id: recoveryCodes.id });
    if (used) return { kind: "recovery", factorId: null };
  }
  throw await wrongCode(db, userId);
}

function hashCode(code: string): string {
  return createHash("sha256").update(code).digest("hex");
}

function newCode(): string {
  for (;;) {
    const code = recoveryCodeFrom(randomBytes(16));
    if (code) return code;
  }
}

/** A new set of recovery codes, shown once: the earlier set ends. */
export async function newRecoveryCodes(db: Database, userId: string): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values([...codes].map((code) => ({ userId, codeHash: hashCode(code) })));
  });
  return [...codes].map(formatRecoveryCode);
}

/** Removes the member's authenticator app; answers whether there was one. */
export async function removeTotp(db: Database, userId: string): Promise<boolean> {
  const removed = await db
    .delete(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, "totp")))
    .returning({ id: userFactors.id });
  return removed.length > 0;
}
