import { and, asc, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { claims, notarizations, noticeCfs, notices } from "~/db/schema";
import type { NoticeIds } from "~/domain/documents/notice-ids";
import { notFound } from "~/domain/errors";
import { requireCauseCode } from "../nol/access.server";
import type { UserRow, Viewer } from "../session.server";

/** A member's notices with their claim, notice_cf and notarize (spec §3 "Notice"). */

type NoticeRow = typeof notices.$inferSelect;
type ClaimRow = typeof claims.$inferSelect;
type NoticeCfRow = typeof noticeCfs.$inferSelect;
type NotarizationRow = typeof notarizations.$inferSelect;

/** A notice with what it belongs to: the unit the documents and the notarizing work on. */
export type NoticeRecord = {
  notice: NoticeRow;
  claim: ClaimRow;
  cf: NoticeCfRow;
  notarization: NotarizationRow | null;
};

/** A notice's own notarization (not its round's proof of service): the join of its record. */
export const noticeNotarization = and(eq(notarizations.noticeId, notices.id), eq(notarizations.document, "notice"));

function noticeQuery(db: Database) {
  return db
    .select({ notice: notices, claim: claims, cf: noticeCfs, notarization: notarizations })
    .from(notices)
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .innerJoin(noticeCfs, eq(noticeCfs.noticeId, notices.id))
    .leftJoin(notarizations, noticeNotarization);
}

/** The member's notices of a cause, by version and round. */
export async function noticesOf(db: Database, member: Pick<UserRow, "id">, causeCode: string): Promise<NoticeRecord[]> {
  return noticeQuery(db)
    .where(and(eq(claims.claimantId, member.id), eq(claims.causeCode, causeCode)))
    .orderBy(asc(claims.nolVersion), asc(notices.roundCnt));
}

/**
 * The member's notice the current NoL names (spec §3): its form entry's number, the version
 * and the round; null when the member has none such.
 */
export async function findNotice(
  db: Database,
  member: Pick<UserRow, "id">,
  ids: NoticeIds,
): Promise<NoticeRecord | null> {
  const [record] = await noticeQuery(db).where(
    and(
      eq(claims.claimantId, member.id),
      eq(noticeCfs.cfNumber, ids.cf_number),
      eq(noticeCfs.cfVersion, ids.cf_version),
      eq(notices.roundCnt, ids.round_cnt),
    ),
  );
  return record ?? null;
}

/** The same; someone else's notice and a missing one are the same not-found. */
export async function noticeOf(db: Database, member: Pick<UserRow, "id">, ids: NoticeIds): Promise<NoticeRecord> {
  const record = await findNotice(db, member, ids);
  if (!record) throw notFound("No such notice");
  return record;
}

/** The ids that name a notice as the current NoL. */
export const noticeIdsOf = (record: NoticeRecord): NoticeIds => ({
  cf_number: record.cf.cfNumber,
  cf_version: record.cf.cfVersion,
  round_cnt: record.notice.roundCnt,
});

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** A notice as the API sends it, with the nested objects spec §3 names. */
export function noticeJson({ notice, claim, cf, notarization }: NoticeRecord) {
  return {
    notice_id: notice.id,
    claim_id: notice.claimId,
    round_cnt: notice.roundCnt,
    created_at: notice.createdAt.toISOString(),
    updated_at: notice.updatedAt.toISOString(),
    notarize: notarization
      ? {
          notarize_id: notarization.id,
          nz_id: notarization.nzId,
          created_at: notarization.createdAt.toISOString(),
          updated_at: notarization.updatedAt.toISOString(),
          cost: notarization.cost,
          nz_created: iso(notarization.nzCreated),
          nz_updated: iso(notarization.nzUpdated),
          nz_status: notarization.nzStatus,
          nz_status2: notarization.nzStatus2,
          access_url: notarization.accessUrl,
        }
      : null,
    claim: {
      claim_id: claim.id,
      claimant_id: claim.claimantId,
      cause_code: claim.causeCode,
      country_code: claim.countryCode,
      nol_version: claim.nolVersion,
      created_at: claim.createdAt.toISOString(),
      updated_at: claim.updatedAt.toISOString(),
      exhibit_id: claim.exhibitId,
    },
    notice_cf: {
      notice_cf_id: cf.id,
      cf_form_id: cf.cfFormId,
      cf_number: cf.cfNumber,
      cf_created: iso(cf.cfCreated),
      cf_updated: iso(cf.cfUpdated),
      cf_version: cf.cfVersion,
    },
  };
}

/** GET /api/nol/notices?cause_code= (spec §7): the member's notices of an existing cause. */
export async function noticesFor(services: AppServices, viewer: Viewer, causeCode: string) {
  await requireCauseCode(services.db, causeCode);
  return { list: (await noticesOf(services.db, viewer.member, causeCode)).map(noticeJson) };
}
