import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { formEntries } from "~/db/schema";
import type { FormsProvider } from "./types";

/** Entry links end in "*" after more than 30 characters, like the hosted forms' (spec §9). */
export function newFormHash(): string {
  return `${randomBytes(24).toString("base64url")}*`;
}

/** The built-in forms engine: entries live in our database; no account, no network. */
export function builtinForms(db: Database): FormsProvider {
  return {
    name: "builtin",
    async submit({ formId, userId, data }) {
      return db.transaction(async (tx) => {
        // Entry numbers count up per form, as a hosted form's do.
        await tx.execute(sql`select pg_advisory_xact_lock(727245, ${formId}::int)`);
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
