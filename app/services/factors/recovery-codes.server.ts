import { createHash, hkdfSync, randomBytes } from "node:crypto";
import { and, eq, notLike } from "drizzle-orm";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import { recoveryCodes } from "~/db/schema";
import { formatRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeFrom } from "~/domain/second-factor";
import { hmacHex } from "~/lib/crypto.server";
import { sweepJob } from "../queue.server";

/**
 * Recovery codes as they are kept: under the server's key, never the code or its bare digest,
 * so a copy of the database cracks none (decision 062). Checking a typed one is codes.server.ts's.
 */

/** What marks a recovery code stored under the server's key; a bare SHA-256 was stored before. */
const KEYED = "hmac1:";

/**
 * The key of the recovery codes: the server's own, derived from SESSION_SECRET, never in the
 * database, so a copy of it (a backup) cracks no code (decision 062).
 */
function recoveryKey(config: AppConfig): Buffer {
  return Buffer.from(hkdfSync("sha256", config.sessionSecret, "memberhall-recovery-codes", "recovery-code", 32));
}

/** Keyed over the code's SHA-256, so that a code stored as that digest alone is rekeyed without the code. */
function keyedDigest(config: AppConfig, digestHex: string): string {
  return KEYED + hmacHex(recoveryKey(config), digestHex);
}

export function storedCode(config: AppConfig, code: string): string {
  return keyedDigest(config, createHash("sha256").update(code).digest("hex"));
}

/**
 * Rewrites the codes still stored as a bare SHA-256, the member's or everyone's, under the
 * server's key: they work as before, and no longer crack from a backup. Answers how many.
 */
export async function rekeyRecoveryCodes(services: AppServices, userId?: string): Promise<number> {
  const { db, config } = services;
  const old = await db
    .select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(notLike(recoveryCodes.codeHash, `${KEYED}%`), userId ? eq(recoveryCodes.userId, userId) : undefined));
  for (const row of old) {
    await db
      .update(recoveryCodes)
      .set({ codeHash: keyedDigest(config, row.codeHash) })
      .where(and(eq(recoveryCodes.id, row.id), eq(recoveryCodes.codeHash, row.codeHash)));
  }
  return old.length;
}

/** The codes stored before decision 062 that no member has typed since, rekeyed within the hour. */
export const recoveryCodesRekeyJob = sweepJob({
  name: "recovery-codes-rekey",
  schedule: "17 * * * *",
  async run(services) {
    await rekeyRecoveryCodes(services);
  },
});

function newCode(): string {
  for (;;) {
    const code = recoveryCodeFrom(randomBytes(16));
    if (code) return code;
  }
}

/** A new set of recovery codes, shown once: the earlier set ends. */
export async function newRecoveryCodes(services: AppServices, userId: string): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  await services.db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx
      .insert(recoveryCodes)
      .values([...codes].map((code) => ({ userId, codeHash: storedCode(services.config, code) })));
  });
  return [...codes].map(formatRecoveryCode);
}
