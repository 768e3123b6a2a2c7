import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { LOCK, xactLock } from "~/db/locks";
import { formEntries } from "~/db/schema";
import { newFormHash } from "~/lib/form-hash.server";
import type { FormsProvider } from "./types";

/** The built-in forms engine: entries live in our database; no account, no network. */
export function builtinForms(db: Database): FormsProvider {
  return {
    name: "builtin",
    async submit({ formId, userId, data }) {
      return db.transaction(async (tx) => {
        // Entry numbers count up per form, as a hosted form's do.
        await tx.execute(xactLock(LOCK.formEntryNumbers, formId));
        const [last] = await tx
          .select({ n: sql<number>`coalesce(max(${formEntries.entryNumber}), 0)` })
          .from(formEntries)
          .where(eq(formEntries.formId, formId));
        const [row] = await tx
          .insert(formEntries)
          .values({
            formId,
            entryNumber: Number(last?.n ?? 0) + 1,
            userId,
            data,
            editHash: newFormHash(),
            viewHash: newFormHash(),
          })
          .returning();
        return { formId, entryNumber: row!.entryNumber, editHash: row!.editHash, viewHash: row!.viewHash, id: row!.id };
      });
    },
  };
}
