import { and, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { claims, notices } from "~/db/schema";
import { submitStep } from "~/services/nol/save-step.server";

/**
 * Saving steps in a past the tests type: a notice or true bill saved here is dated as made on
 * `madeOn`, so the mailing and delivery days the tests give (March 2026) come after it, as a
 * mailing step requires of a real round.
 */

/** Dates the owner's notices made after `day` as made on `day`. */
export async function backdateNotices(db: Database, ownerId: string, day = "2026-01-01"): Promise<void> {
  const theirs = db
    .select({ id: claims.id })
    .from(claims)
    .where(sql`${claims.claimantId} = ${ownerId}`);
  const at = new Date(`${day}T12:00:00Z`);
  await db
    .update(notices)
    .set({ createdAt: at })
    .where(and(inArray(notices.claimId, theirs), sql`${notices.createdAt} > ${at.toISOString()}`));
}

type Args = Parameters<typeof submitStep>;

/** submitStep, the round's notice dated in the tests' past when the step makes one. */
export async function submitDated(...args: Args): ReturnType<typeof submitStep> {
  const saved = await submitStep(...args);
  const [services, , owner, input] = args;
  if (input.kind === "notice" || input.kind === "true-bill") await backdateNotices(services.db, owner.id);
  return saved;
}
