import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { formEntries } from "~/db/schema";
import { newFormHash } from "~/lib/form-hash.server";
import type { FormSubmission } from "~/providers/forms/types";

/**
 * Entries of the community's own forms (respondents, correction, support). The forms provider
 * keeps them (our engine, or a hosted service through its API); we always keep a copy in
 * form_entries, so the review queue, the support list and the forms service read them alike.
 */

export type StoredFormEntry = typeof formEntries.$inferSelect;

/** A hosted service's entry, as its API answers or its webhook delivers it. */
export type HostedFormEntry = FormSubmission & {
  hostedId: string;
  entryNumber: number;
  editLink: string | null;
  viewLink: string | null;
};

/** Keeps (or refreshes) our copy of a hosted entry; a delivery of one already kept updates it. */
export async function keepHostedEntry(db: Database, entry: HostedFormEntry): Promise<StoredFormEntry> {
  const values = {
    formId: entry.formId,
    entryNumber: entry.entryNumber,
    userId: entry.userId,
    data: entry.data,
    editLink: entry.editLink,
    viewLink: entry.viewLink,
  };
  const [row] = await db
    .insert(formEntries)
    .values({ ...values, hostedId: entry.hostedId, editHash: newFormHash(), viewHash: newFormHash() })
    .onConflictDoUpdate({
      target: formEntries.hostedId,
      set: { data: values.data, editLink: values.editLink, viewLink: values.viewLink, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

/** A new entry through the forms provider; what is returned is our copy. */
export async function storeFormEntry(services: AppServices, input: FormSubmission): Promise<StoredFormEntry> {
  const { forms } = services.providers;
  const entry = await forms.submit(input);
  if (forms.name === "builtin") {
    const [row] = await services.db.select().from(formEntries).where(eq(formEntries.id, entry.id));
    return row!;
  }
  return keepHostedEntry(services.db, {
    ...input,
    hostedId: entry.id,
    entryNumber: entry.entryNumber,
    editLink: entry.editLink ?? null,
    viewLink: entry.viewLink ?? null,
  });
}
