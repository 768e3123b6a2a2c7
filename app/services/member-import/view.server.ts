import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { memberImportRows, memberImports, users } from "~/db/schema";
import { notFound } from "~/domain/errors";
import { csvLine } from "~/domain/listing";
import type { ImportedMember } from "~/domain/member-import";

export { IMPORT_MAX_BYTES, IMPORT_MAX_MB, IMPORT_TOO_LARGE } from "~/domain/member-import";
import type { ImportView } from "~/domain/member-import-inputs";
import { INVITATIONS_PER_MINUTE } from "./invite.server";

/** What the import pages show: the imports, one import's summary and lines, and its report. */

export const IMPORT_ROWS_PER_PAGE = 100;

export async function recentImports(services: AppServices) {
  return services.db
    .select({
      id: memberImports.id,
      fileName: memberImports.fileName,
      status: memberImports.status,
      total: memberImports.total,
      created: memberImports.created,
      updated: memberImports.updated,
      skipped: memberImports.skipped,
      createdAt: memberImports.createdAt,
      admin: users.username,
    })
    .from(memberImports)
    .leftJoin(users, eq(users.id, memberImports.adminId))
    .where(sql`${memberImports.status} <> 'checking'`)
    .orderBy(desc(memberImports.createdAt))
    .limit(20);
}

/** An import with a page of its lines: those the dry run found would do `view`, from row `after` on. */
export async function importPage(services: AppServices, importId: string, view: ImportView, after: number) {
  const { db } = services;
  const [found] = await db
    .select({ record: memberImports, admin: users.username })
    .from(memberImports)
    .leftJoin(users, eq(users.id, memberImports.adminId))
    .where(eq(memberImports.id, importId));
  if (!found || found.record.status === "checking") throw notFound("No such import");
  const rows = await db
    .select({
      row: memberImportRows.line,
      email: memberImportRows.email,
      member: memberImportRows.member,
      action: memberImportRows.action,
      reason: memberImportRows.reason,
      outcome: memberImportRows.outcome,
      outcomeReason: memberImportRows.outcomeReason,
    })
    .from(memberImportRows)
    .where(
      and(
        eq(memberImportRows.importId, importId),
        gt(memberImportRows.line, after),
        view === "all" ? undefined : eq(memberImportRows.action, view),
      ),
    )
    .orderBy(asc(memberImportRows.line))
    .limit(IMPORT_ROWS_PER_PAGE + 1);
  const shown = rows.slice(0, IMPORT_ROWS_PER_PAGE).map(({ member, ...row }) => ({
    ...row,
    username: (member as ImportedMember | null)?.username ?? null,
  }));
  const next = rows.length > IMPORT_ROWS_PER_PAGE ? shown.at(-1)!.row : null;
  const { columns, ...record } = found.record;
  return {
    import: { ...record, admin: found.admin },
    columns,
    view,
    rows: shown,
    next,
    invitationsPerMinute: INVITATIONS_PER_MINUTE,
  };
}

const REPORT_HEADER = ["row", "email", "username", "dry run", "dry run details", "import", "import details"];
const REPORT_BATCH = 2_000;

/** The import's report as CSV, every line with what the dry run found and what the import did, read in batches. */
export function importReport(services: AppServices, importId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvLine(REPORT_HEADER)));
        return;
      }
      const rows = await services.db
        .select()
        .from(memberImportRows)
        .where(and(eq(memberImportRows.importId, importId), gt(memberImportRows.line, after)))
        .orderBy(asc(memberImportRows.line))
        .limit(REPORT_BATCH);
      const text = rows
        .map((r) =>
          csvLine([
            r.line,
            r.email,
            (r.member as ImportedMember | null)?.username ?? "",
            r.action,
            r.reason,
            r.outcome ?? "",
            r.outcomeReason ?? "",
          ]),
        )
        .join("");
      if (text) controller.enqueue(encoder.encode(text));
      if (rows.length < REPORT_BATCH) controller.close();
      else after = rows.at(-1)!.line;
    },
  });
}

/** The import's file name, for the report's own, or not found. */
export async function importFileName(services: AppServices, importId: string): Promise<string> {
  const [found] = await services.db
    .select({ fileName: memberImports.fileName })
    .from(memberImports)
    .where(eq(memberImports.id, importId));
  if (!found) throw notFound("No such import");
  return found.fileName;
}
