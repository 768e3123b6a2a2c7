import { and, desc, eq, inArray, or } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { formEntries } from "~/db/schema";
import { supportSchema } from "~/domain/contact";
import { invalid, notFound } from "~/domain/errors";
import { SERVICE_FORMS, type CreateEntryInput, type UpdateEntryInput } from "~/domain/form-entries";
import { FORM_IDS } from "~/domain/forms";
import { seamlessLink } from "~/domain/nol/addresses";
import { answerWords, humanize } from "~/domain/words";
import { issuesByPath } from "~/lib/json-body.server";
import { audit, actorOf } from "./audit.server";
import type { Viewer } from "./session.server";
import { storeFormEntry } from "./form-store.server";
import { submitSupportRequest } from "./support.server";

/** The second forms service (app/domain/form-entries.ts): a member's own entries of the community's forms. */

type EntryRow = typeof formEntries.$inferSelect;

const LIST_LIMIT = 200;

/** An entry's links, of the NoL entries' shape: a hosted entry's own, else our seamless page's. */
export function formEntryLinks(row: EntryRow) {
  return {
    edit_link: row.editLink ?? seamlessLink(row, row.editHash),
    view_link: row.viewLink ?? seamlessLink(row, row.viewHash),
  };
}

export function formEntryJson(row: EntryRow) {
  return {
    id: row.id,
    form: row.formId,
    number: row.entryNumber,
    data: row.data,
    ...formEntryLinks(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The member's latest entries of these forms, newest first. */
export function memberEntriesOf(services: AppServices, viewer: Viewer, formIds: readonly number[], limit: number) {
  return services.db
    .select()
    .from(formEntries)
    .where(and(eq(formEntries.userId, viewer.member.id), inArray(formEntries.formId, [...formIds])))
    .orderBy(desc(formEntries.createdAt))
    .limit(limit);
}

/** The member's entries of the service's forms (or of one), newest first. */
export async function listFormEntries(services: AppServices, viewer: Viewer, form: number | undefined) {
  const rows = await memberEntriesOf(services, viewer, form === undefined ? SERVICE_FORMS : [form], LIST_LIMIT);
  return { list: rows.map(formEntryJson) };
}

/** One of the member's entries; another member's and a missing one are the same 404. */
async function ownEntry(services: AppServices, viewer: Viewer, id: string): Promise<EntryRow> {
  const [row] = await services.db
    .select()
    .from(formEntries)
    .where(
      and(
        eq(formEntries.id, id),
        eq(formEntries.userId, viewer.member.id),
        inArray(formEntries.formId, [...SERVICE_FORMS]),
      ),
    );
  if (!row) throw notFound("No such entry");
  return row;
}

export async function getFormEntry(services: AppServices, viewer: Viewer, id: string) {
  return { entry: formEntryJson(await ownEntry(services, viewer, id)) };
}

/**
 * A new entry. The support form (255) is a support request like the footer's: checked as that
 * form is, sent to the support inbox, kept in the admins' list.
 */
export async function createFormEntry(
  services: AppServices,
  viewer: Viewer,
  input: CreateEntryInput,
  meta: { ip: string },
) {
  if (input.form === FORM_IDS.support) {
    const parsed = supportSchema.safeParse({ email: viewer.member.email, ...input.data });
    if (!parsed.success) throw invalid("Invalid support request", prefixed(issuesByPath(parsed.error)));
    const sent = await submitSupportRequest(services, parsed.data, {
      userId: viewer.member.id,
      ip: meta.ip,
      actor: actorOf(viewer),
    });
    return getFormEntry(services, viewer, sent.formEntryId);
  }
  const entry = await storeFormEntry(services, {
    formId: input.form,
    userId: viewer.member.id,
    data: input.data,
  });
  await audit(services.db, actorOf(viewer), "form.entry.create", "form_entry", entry.id);
  return getFormEntry(services, viewer, entry.id);
}

/** Replaces an entry's data; the support form's requests are not changed once sent. */
export async function updateFormEntry(services: AppServices, viewer: Viewer, id: string, input: UpdateEntryInput) {
  const row = await ownEntry(services, viewer, id);
  if (row.formId === FORM_IDS.support) throw invalid("A support request cannot be changed once sent");
  const [updated] = await services.db
    .update(formEntries)
    .set({ data: input.data, updatedAt: new Date() })
    .where(eq(formEntries.id, row.id))
    .returning();
  await audit(services.db, actorOf(viewer), "form.entry.update", "form_entry", row.id);
  return { entry: formEntryJson(updated!) };
}

export async function deleteFormEntry(services: AppServices, viewer: Viewer, id: string) {
  const row = await ownEntry(services, viewer, id);
  if (row.formId === FORM_IDS.support) throw invalid("A support request cannot be withdrawn once sent");
  await services.db.delete(formEntries).where(eq(formEntries.id, row.id));
  await audit(services.db, actorOf(viewer), "form.entry.delete", "form_entry", row.id);
  return { deleted: true };
}

/** The support form's field errors under `data.`, as the body names them. */
function prefixed(errors: Record<string, string[] | undefined>) {
  return Object.fromEntries(Object.entries(errors).map(([key, value]) => [`data.${key}`, value]));
}

const FORM_TITLES: Record<number, string> = {
  [FORM_IDS.searchRespondent]: "Search for a respondent",
  [FORM_IDS.suggestRespondent]: "Suggestion of a respondent",
  [FORM_IDS.respondentReassessment]: "Respondent reassessment",
  [FORM_IDS.noticeOfCorrection]: "Notice of correction",
  [FORM_IDS.support]: "Support request",
};

/** A field name as a person reads it: "respondentName" → "Respondent name". */
const fieldLabel = (key: string) => {
  const words = key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * One of the community's form entries opened by its edit or view link (the NoL entries' shape,
 * /nol/seemless/{form}/{hash}?entry={"EntryId":…}): its owner and admins see it; anyone else
 * gets the same 404 as a wrong link.
 */
export async function formEntryPage(
  services: AppServices,
  viewer: Viewer,
  params: { formId: number; hash: string; entryId: unknown },
) {
  const id = z.string().uuid().safeParse(params.entryId);
  if (!id.success) throw notFound();
  const [row] = await services.db
    .select()
    .from(formEntries)
    .where(
      and(
        eq(formEntries.id, id.data),
        eq(formEntries.formId, params.formId),
        or(eq(formEntries.editHash, params.hash), eq(formEntries.viewHash, params.hash)),
      ),
    );
  if (!row || (row.userId !== viewer.member.id && !viewer.user.admin)) throw notFound();
  return {
    kind: "form" as const,
    title: `${FORM_TITLES[row.formId] ?? `Form ${row.formId}`} #${row.entryNumber}`,
    sent: row.createdAt.toISOString(),
    review: row.reviewStatus ? { status: humanize(row.reviewStatus), note: row.reviewNote } : null,
    fields: Object.entries(row.data).map(([key, value]) => ({
      key,
      label: fieldLabel(key),
      value: answerWords(value),
    })),
  };
}
