import { z } from "zod";
import type { Database } from "~/db/client.server";
import { invariant, notFound } from "~/domain/errors";
import { latestErrorReports } from "./errors.server";
import { auditEntries, outboxMessage, outboxMessages, supportRequestList } from "./records.server";

const mailId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The admins' read-only views of the site's own records (/db/{entity?}/{view?}): the list
 * of records, a table of one record kind, or one mail of the outbox. Anything else is not-found.
 */
export async function recordView(db: Database, entity: string | undefined, view: string | undefined) {
  if (!entity) return { view: "index" as const };
  if (entity === "mail_outbox" && view) {
    const id = mailId.safeParse(view);
    invariant(id.success);
    const message = await outboxMessage(db, id.data);
    invariant(message);
    return { view: "mail" as const, message };
  }
  if (view) throw notFound();
  switch (entity) {
    case "mail_outbox":
      return { view: "outbox" as const, rows: await outboxMessages(db) };
    case "audit_log":
      return { view: "audit" as const, rows: await auditEntries(db) };
    case "support_requests":
      return { view: "support" as const, rows: await supportRequestList(db) };
    case "error_reports":
      return { view: "errors" as const, rows: await latestErrorReports(db) };
    default:
      throw notFound();
  }
}
