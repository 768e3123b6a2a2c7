import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { claims, nolEntries, users } from "~/db/schema";
import { documentKindOf } from "~/domain/documents/document-data";
import { entryTimes } from "~/domain/documents/records";
import type { NoticeIds } from "~/domain/documents/notice-ids";
import { FORM_ID } from "~/domain/nol/entries";
import { entriesOf, versionState, type EntryRow } from "../nol/entries.server";
import type { UserRow } from "../session.server";
import type { NoticeRecord } from "./notices.server";
import { templateInUse } from "./templates.server";
import { versionClaim } from "../version-keys.server";

/**
 * The notice a version's notice step is writing (spec §4: online notarizing is offered at
 * notice steps): the round of that step, as the version's saved answers (its creator entry)
 * make it. Its rows are made when it is first notarized (recordWrittenNotice); until then its
 * preview is made from a record that is not stored.
 */

/** The member's creator entry the ids name, when its version's next step is the notice of that round. */
export async function writtenNoticeEntry(
  db: Database,
  member: Pick<UserRow, "id">,
  ids: NoticeIds,
): Promise<EntryRow | null> {
  const [entry] = await db
    .select()
    .from(nolEntries)
    .where(
      and(
        eq(nolEntries.userId, member.id),
        eq(nolEntries.formId, FORM_ID.NoLCreator2),
        eq(nolEntries.entryNumber, ids.cf_number),
        eq(nolEntries.descriptiveVersion, ids.cf_version),
      ),
    );
  if (!entry) return null;
  const { step, creator } = versionState(await entriesOf(db, member.id, entry.causeCode), ids.cf_version);
  const writing = step.kind === "notice" && step.round === ids.round_cnt && creator?.id === entry.id;
  return writing ? entry : null;
}

/** The notice being written as a record that is not stored: dated now, with the template in use now. */
export async function writtenNoticeRecord(
  db: Database,
  member: Pick<UserRow, "id">,
  ids: NoticeIds,
): Promise<NoticeRecord | null> {
  const entry = await writtenNoticeEntry(db, member, ids);
  if (!entry) return null;
  const [claim] = await db
    .select()
    .from(claims)
    .where(versionClaim(member.id, entry.causeCode, entry.descriptiveVersion));
  const [person] = await db.select({ countryCode: users.countryCode }).from(users).where(eq(users.id, member.id));
  const round = ids.round_cnt;
  const template = await templateInUse(db, { causeCode: entry.causeCode, kind: documentKindOf(round), round });
  const now = new Date();
  const times = entryTimes(entry);
  return {
    claim: claim ?? {
      id: 0,
      claimantId: member.id,
      causeCode: entry.causeCode,
      countryCode: person?.countryCode ?? "",
      nolVersion: entry.descriptiveVersion,
      exhibitId: null,
      createdAt: now,
      updatedAt: now,
    },
    notice: {
      id: 0,
      claimId: claim?.id ?? 0,
      roundCnt: round,
      documentTemplateId: template.id,
      createdAt: now,
      updatedAt: now,
    },
    cf: {
      id: 0,
      noticeId: 0,
      cfFormId: entry.formId,
      cfNumber: entry.entryNumber,
      cfVersion: entry.descriptiveVersion,
      cfCreated: times.created,
      cfUpdated: times.updated,
    },
    notarization: null,
  };
}
