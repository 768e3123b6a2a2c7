import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { claims, noticeCfs, notices, nolEntries, users } from "~/db/schema";
import { entryTimes, exhibitReference, noticeRoundsOf } from "~/domain/documents/records";
import { versionClaim } from "../version-keys.server";

/**
 * The claim, notices and notice_cfs of a stored entry (spec §3 "Notice"), written in the
 * transaction that stored the entry, by the built-in forms and the Cognito webhooks alike.
 * Idempotent on the entry: a second run with the same entry changes no row; an entry updated
 * since (a mailing date, a proof of delivery) moves its notices' cf_updated.
 */
export async function recordNotices(db: Database, entryId: string): Promise<void> {
  const found = await entryWithCountry(db, entryId);
  if (!found) return;
  await recordRounds(db, found, noticeRoundsOf(found.entry));
}

/**
 * The claim, notice and notice_cf of the round a creator entry's notice step is writing, made
 * when that notice is first notarized: its notarize needs a notice to belong to. Submitting
 * the step later finds them made (recordNotices changes no row of them but cf_updated).
 */
export async function recordWrittenNotice(db: Database, entryId: string, round: number): Promise<void> {
  const found = await entryWithCountry(db, entryId);
  if (found?.entry.form === "NoLCreator2") await recordRounds(db, found, [round]);
}

type EntryWithCountry = { entry: typeof nolEntries.$inferSelect; countryCode: string };

async function entryWithCountry(db: Database, entryId: string): Promise<EntryWithCountry | null> {
  const [row] = await db
    .select({ entry: nolEntries, countryCode: users.countryCode })
    .from(nolEntries)
    .innerJoin(users, eq(users.id, nolEntries.userId))
    .where(eq(nolEntries.id, entryId));
  // A member without a country has no cause open (spec §4), so no round of theirs reaches here.
  return row?.countryCode ? { entry: row.entry, countryCode: row.countryCode } : null;
}

async function recordRounds(db: Database, { entry, countryCode }: EntryWithCountry, rounds: number[]): Promise<void> {
  if (rounds.length === 0) return;
  const claimId = await claimOf(db, {
    claimantId: entry.userId,
    causeCode: entry.causeCode,
    countryCode,
    nolVersion: entry.descriptiveVersion,
  });
  const times = entryTimes(entry);
  for (const round of rounds) {
    const noticeId = await noticeOf(db, claimId, round);
    await db
      .insert(noticeCfs)
      .values({
        noticeId,
        cfFormId: entry.formId,
        cfNumber: entry.entryNumber,
        cfVersion: entry.descriptiveVersion,
        cfCreated: times.created,
        cfUpdated: times.updated,
      })
      .onConflictDoUpdate({
        target: noticeCfs.noticeId,
        set: { cfUpdated: times.updated },
        // Only this entry moves its notices, and only when it changed.
        setWhere: and(
          eq(noticeCfs.cfFormId, entry.formId),
          eq(noticeCfs.cfNumber, entry.entryNumber),
          sql`${noticeCfs.cfUpdated} is distinct from excluded.cf_updated`,
        ),
      });
  }
}

type ClaimKey = { claimantId: string; causeCode: string; countryCode: string; nolVersion: string };

/** The member's claim of a cause and version, made on its first notice with its exhibit reference. */
async function claimOf(db: Database, key: ClaimKey): Promise<number> {
  const [created] = await db
    .insert(claims)
    .values(key)
    .onConflictDoNothing({ target: [claims.claimantId, claims.causeCode, claims.nolVersion] })
    .returning({ id: claims.id });
  if (created) {
    await db
      .update(claims)
      .set({ exhibitId: exhibitReference(key.causeCode, created.id) })
      .where(eq(claims.id, created.id));
    return created.id;
  }
  const [existing] = await db
    .select({ id: claims.id })
    .from(claims)
    .where(versionClaim(key.claimantId, key.causeCode, key.nolVersion));
  return existing!.id;
}

async function noticeOf(db: Database, claimId: number, round: number): Promise<number> {
  const [created] = await db
    .insert(notices)
    .values({ claimId, roundCnt: round })
    .onConflictDoNothing({ target: [notices.claimId, notices.roundCnt] })
    .returning({ id: notices.id });
  if (created) return created.id;
  const [existing] = await db
    .select({ id: notices.id })
    .from(notices)
    .where(and(eq(notices.claimId, claimId), eq(notices.roundCnt, round)));
  return existing!.id;
}
