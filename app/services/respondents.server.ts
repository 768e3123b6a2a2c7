import { and, asc, desc, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { AppServices } from "~/context";
import { claims, directoryRespondents, formEntries, respondents, users } from "~/db/schema";
import { conflict, invalid, notFound } from "~/domain/errors";
import { FORM_IDS } from "~/domain/forms";
import {
  sameRespondent,
  type correctionSchema,
  type DirectoryQuery,
  type reassessmentSchema,
  type reviewSchema,
  type Suggestion,
} from "~/domain/respondents";
import { audit, actorOf } from "./audit.server";
import { noticesOf } from "./documents/notices.server";
import { formEntryLinks, memberEntriesOf } from "./form-entries.server";
import { storeFormEntry } from "./form-store.server";
import { labelOfStoredRound } from "./round-labels.server";
import type { Viewer } from "./session.server";

/** The community's respondents directory, the forms that feed it, and the admins' review of them. */

const LIST_LIMIT = 50;
const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** How many notices name a respondent: respondents of NoL entries with the same name. Never who sent them. */
// Written out with its own alias: inside the subquery a bare "name" would be the respondents' own.
const noticeCount = sql<number>`(select count(*) from ${respondents} as "named" where lower("named"."name") = lower("directory_respondents"."name"))`;

export async function searchDirectory(services: AppServices, query: DirectoryQuery) {
  const where: SQL[] = [];
  if (query.q) where.push(ilike(directoryRespondents.name, like(query.q)));
  if (query.type) where.push(eq(directoryRespondents.type, query.type));
  if (query.place) where.push(ilike(directoryRespondents.place, like(query.place)));
  const rows = await services.db
    .select({
      id: directoryRespondents.id,
      name: directoryRespondents.name,
      type: directoryRespondents.type,
      agency: directoryRespondents.agency,
      place: directoryRespondents.place,
      address: directoryRespondents.address,
      notices: noticeCount,
    })
    .from(directoryRespondents)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(directoryRespondents.name))
    .limit(LIST_LIMIT);
  return rows.map((r) => ({ ...r, notices: Number(r.notices) }));
}

export async function directoryRespondent(services: AppServices, id: number) {
  const [row] = await services.db.select().from(directoryRespondents).where(eq(directoryRespondents.id, id));
  if (!row) throw notFound("No such respondent");
  return row;
}

/** Form 92: the search is kept as the member's entry. */
export async function recordSearch(services: AppServices, viewer: Viewer, input: { q: string; place?: string }) {
  await storeFormEntry(services, {
    formId: FORM_IDS.searchRespondent,
    userId: viewer.member.id,
    data: { q: input.q, place: input.place ?? null },
  });
}

/** Stores an entry of one of the reviewed forms, waiting for an admin. */
async function submitForReview(services: AppServices, viewer: Viewer, formId: number, data: Record<string, unknown>) {
  const entry = await storeFormEntry(services, { formId, userId: viewer.member.id, data });
  await services.db.update(formEntries).set({ reviewStatus: "pending" }).where(eq(formEntries.id, entry.id));
  await audit(services.db, actorOf(viewer), "respondents.submit", "form_entry", entry.id);
  return entry;
}

/**
 * Form 207. A respondent the directory has already is offered instead (nothing is stored); a
 * new one waits for an admin.
 */
export async function suggestRespondent(services: AppServices, viewer: Viewer, input: Suggestion) {
  const known = await searchDirectory(services, { q: input.name.trim().replace(/\s+/g, " ") });
  const existing = known.find((r) => sameRespondent(r, input));
  if (existing) return { existing: { id: existing.id, name: existing.name, place: existing.place } };
  const entry = await submitForReview(services, viewer, FORM_IDS.suggestRespondent, { ...input });
  return { entryNumber: entry.entryNumber };
}

/** Form 134: a request to look again at a respondent of the directory. */
export async function requestReassessment(
  services: AppServices,
  viewer: Viewer,
  input: z.infer<typeof reassessmentSchema>,
) {
  const respondent = await directoryRespondent(services, input.respondent);
  const entry = await submitForReview(services, viewer, FORM_IDS.respondentReassessment, {
    respondentId: respondent.id,
    respondentName: respondent.name,
    reason: input.reason,
  });
  return { entryNumber: entry.entryNumber };
}

/** The member's notices, for the correction form to choose from. */
export async function correctableNotices(services: AppServices, viewer: Viewer) {
  const causes = await services.db
    .selectDistinct({ cause: claims.causeCode })
    .from(claims)
    .where(eq(claims.claimantId, viewer.member.id));
  const records = (await Promise.all(causes.map((c) => noticesOf(services.db, viewer.member, c.cause)))).flat();
  return records.map((r) => ({
    id: r.notice.id,
    cause: r.claim.causeCode,
    version: r.claim.nolVersion,
    round: r.notice.roundCnt,
    label: `${r.claim.causeCode} · ${r.claim.nolVersion} · ${labelOfStoredRound(services.logger, r.notice.roundCnt, "the notices to correct")}`,
  }));
}

/** Form 218: a correction of one of the member's own notices (another's is the same 404 as none). */
export async function fileCorrection(services: AppServices, viewer: Viewer, input: z.infer<typeof correctionSchema>) {
  const notice = (await correctableNotices(services, viewer)).find((n) => n.id === input.notice);
  if (!notice) throw notFound("No such notice");
  const entry = await storeFormEntry(services, {
    formId: FORM_IDS.noticeOfCorrection,
    userId: viewer.member.id,
    data: { noticeId: notice.id, notice: notice.label, change: input.change },
  });
  await audit(services.db, actorOf(viewer), "notice.correction", "form_entry", entry.id);
  return { entryNumber: entry.entryNumber, notice: notice.label };
}

/** The member's filed corrections, newest first, with their view links. */
export async function ownCorrections(services: AppServices, viewer: Viewer) {
  const rows = await services.db
    .select()
    .from(formEntries)
    .where(and(eq(formEntries.userId, viewer.member.id), eq(formEntries.formId, FORM_IDS.noticeOfCorrection)))
    .orderBy(desc(formEntries.createdAt))
    .limit(20);
  return rows.map((r) => ({
    number: r.entryNumber,
    notice: String((r.data as Record<string, unknown>).notice ?? ""),
    viewLink: formEntryLinks(r).view_link,
  }));
}

/** The form entries waiting for an admin's review: suggestions and reassessment requests not yet decided. */
export const waitingForReview: SQL = and(
  eq(formEntries.reviewStatus, "pending"),
  inArray(formEntries.formId, [FORM_IDS.suggestRespondent, FORM_IDS.respondentReassessment]),
)!;

/** The suggestions and reassessment requests waiting for an admin, oldest first. */
export async function reviewQueue(services: AppServices) {
  const rows = await services.db
    .select({ entry: formEntries, username: users.username })
    .from(formEntries)
    .leftJoin(users, eq(users.id, formEntries.userId))
    .where(waitingForReview)
    .orderBy(asc(formEntries.createdAt))
    .limit(100);
  return rows.map(({ entry, username }) => ({
    id: entry.id,
    kind: entry.formId === FORM_IDS.suggestRespondent ? ("suggestion" as const) : ("reassessment" as const),
    number: entry.entryNumber,
    from: username,
    data: entry.data as Record<string, string | number | null>,
    createdAt: entry.createdAt.toISOString(),
  }));
}

/**
 * An admin approves or rejects a waiting entry; an approved suggestion joins the directory.
 * The member is told by e-mail, with the admin's note.
 */
export async function reviewEntry(services: AppServices, admin: Viewer, input: z.infer<typeof reviewSchema>) {
  const { db } = services;
  const result = await db.transaction(async (tx) => {
    const [entry] = await tx.select().from(formEntries).where(eq(formEntries.id, input.entry)).for("update");
    if (!entry || entry.reviewStatus === null) throw notFound("No such request");
    if (entry.reviewStatus !== "pending") throw conflict("This request has been reviewed already");
    const approved = input.intent === "approve";
    if (approved && entry.formId === FORM_IDS.suggestRespondent) {
      const data = entry.data as Record<string, string | undefined>;
      if (!data.name || !data.type) throw invalid("The suggestion has no name or kind");
      await tx
        .insert(directoryRespondents)
        .values({
          name: data.name,
          type: data.type,
          agency: data.agency || null,
          place: data.place || null,
          address: data.address || null,
          suggestionId: entry.id,
        })
        .onConflictDoNothing();
    }
    await tx
      .update(formEntries)
      .set({
        reviewStatus: approved ? "approved" : "rejected",
        reviewNote: input.note || null,
        reviewedAt: new Date(),
        reviewedBy: admin.user.id,
      })
      .where(eq(formEntries.id, entry.id));
    return entry;
  });
  await audit(db, actorOf(admin), `respondents.${input.intent}`, "form_entry", result.id);
  const [member] = result.userId
    ? await db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, result.userId))
    : [];
  if (member) {
    const what = result.formId === FORM_IDS.suggestRespondent ? "suggestion of a respondent" : "reassessment request";
    const verdict = input.intent === "approve" ? "was approved" : "was not approved";
    await services.providers.mail.send({
      to: member.email,
      template: "respondent-review",
      subject: `Your ${what} ${verdict}`,
      text: `Hello ${member.username},\n\nYour ${what} #${result.entryNumber} ${verdict}.${input.note ? `\n\n${input.note}` : ""}\n`,
    });
  }
  return { status: input.intent === "approve" ? "approved" : "rejected" };
}

/** The member's own suggestions and requests, newest first, with where each stands. */
export async function ownRequests(services: AppServices, viewer: Viewer) {
  const rows = await memberEntriesOf(
    services,
    viewer,
    [FORM_IDS.suggestRespondent, FORM_IDS.respondentReassessment],
    20,
  );
  return rows.map((r) => ({
    number: r.entryNumber,
    kind: r.formId === FORM_IDS.suggestRespondent ? "Suggestion" : "Reassessment",
    name: String((r.data as Record<string, unknown>).name ?? (r.data as Record<string, unknown>).respondentName ?? ""),
    status: r.reviewStatus,
    note: r.reviewNote,
    viewLink: formEntryLinks(r).view_link,
  }));
}
