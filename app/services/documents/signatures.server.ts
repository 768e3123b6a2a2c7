import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { roundSignatures } from "~/db/schema";
import { SIGN_BEFORE_MAILING } from "~/domain/documents/signature";
import { conflict } from "~/domain/errors";

/** The member's electronic signatures of their rounds' notices (docs/decisions/058). */

export type RoundSignatureRow = typeof roundSignatures.$inferSelect;

/** The newest signature of a round's notice (its entry and round), or null when it is not signed. */
export async function latestSignature(db: Database, entryId: string, round: number): Promise<RoundSignatureRow | null> {
  const [row] = await db
    .select()
    .from(roundSignatures)
    .where(and(eq(roundSignatures.entryId, entryId), eq(roundSignatures.round, round)))
    .orderBy(desc(roundSignatures.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The round's newest signature; a round not signed is mailed by no one (docs/decisions/058):
 * paying for its letters and sending them are refused until the member signs.
 */
export async function requireSigned(db: Database, entryId: string, round: number): Promise<RoundSignatureRow> {
  const signature = await latestSignature(db, entryId, round);
  if (!signature) throw conflict(SIGN_BEFORE_MAILING);
  return signature;
}
