import { and, eq, lt } from "drizzle-orm";
import type { AppServices } from "~/context";
import { memberImportRows, memberImports } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { giveWay } from "~/lib/give-way.server";
import {
  columnsProblem,
  firstSeen,
  mapColumns,
  readLine,
  usernameCandidates,
  usernameFromEmail,
  type CatalogueFacts,
  type ColumnMap,
  type Plan,
} from "~/domain/member-import";
import { actorOf, audit } from "../audit.server";
import type { Viewer } from "../session.server";
import { catalogueFacts, decideLines, existingMembers, takenUsernames, type ReadyLine } from "./plan.server";
import { readCsv, type CsvRecord, type Upload } from "./read.server";

/**
 * The dry run (decision 038): reads the whole file, decides what each line would do against the
 * members as they are, and keeps every line with its plan, in batches, as the import's rows.
 * Nothing else is written and nobody is e-mailed. A file that cannot be read leaves nothing.
 */

/**
 * Lines read, decided and written at a time, the event loop given a turn after each batch. On
 * the embedded database a batch's queries run in this process and hold it while they run; on
 * PostgreSQL only the batch's own work does (reading, deciding, building the statements).
 */
const CHECK_BATCH = { pglite: 100, postgres: 500 } as const;

/** How long a dry run may take before its rows count as left behind by a stopped server. */
const STALE_CHECK_MS = 6 * 60 * 60 * 1000;

export const NO_MEMBERS = "The file has no members in it: only a header line.";

/** What the file so far has used: e-mails and usernames, each with the row that has it. */
type FileState = { emails: Map<string, number>; usernames: Map<string, number> };

type StagedRow = typeof memberImportRows.$inferInsert;

export type CheckResult = { importId: string; total: number; toCreate: number; toUpdate: number; toSkip: number };

/** Checks an uploaded file and keeps it as an import waiting to be started; the upload is left for the caller. */
export async function checkImport(
  services: AppServices,
  admin: Viewer,
  upload: Upload,
  options: { invite: boolean },
): Promise<CheckResult> {
  const { db } = services;
  const records = readCsv(upload);
  const header = await records.next();
  if (header.done) throw invalid("The file is empty.", { file: ["The file is empty."] });
  const columns = mapColumns(header.value.cells);
  const problem = columnsProblem(columns);
  if (problem) throw invalid(problem, { file: [problem] });
  const facts = await catalogueFacts(db);
  // A dry run cut short by a stopped server leaves its rows behind: gone once it is old.
  await db
    .delete(memberImports)
    .where(
      and(eq(memberImports.status, "checking"), lt(memberImports.createdAt, new Date(Date.now() - STALE_CHECK_MS))),
    );
  const [made] = await db
    .insert(memberImports)
    .values({
      adminId: admin.user.id,
      fileName: upload.fileName,
      encoding: upload.encoding,
      columns,
      invite: options.invite,
    })
    .returning({ id: memberImports.id });
  const importId = made!.id;
  const counts = { total: 0, toCreate: 0, toUpdate: 0, toSkip: 0 };
  const state: FileState = { emails: new Map(), usernames: new Map() };
  try {
    let batch: CsvRecord[] = [];
    const flush = async () => {
      const rows = await checkBatch(services, importId, batch, columns, facts, state);
      for (const row of rows) {
        counts.total += 1;
        if (row.action === "create") counts.toCreate += 1;
        else if (row.action === "update") counts.toUpdate += 1;
        else counts.toSkip += 1;
      }
      batch = [];
    };
    for await (const record of records) {
      batch.push(record);
      if (batch.length >= CHECK_BATCH[services.database.driver]) {
        await flush();
        await giveWay();
      }
    }
    if (batch.length > 0) await flush();
    if (counts.total === 0) throw invalid(NO_MEMBERS, { file: [NO_MEMBERS] });
    await db
      .update(memberImports)
      .set({ status: "checked", ...counts })
      .where(eq(memberImports.id, importId));
    await audit(db, actorOf(admin), "members.import.check", "member-import", importId, {
      file: upload.fileName,
      ...counts,
    });
  } catch (error) {
    await db.delete(memberImports).where(eq(memberImports.id, importId));
    throw error;
  }
  return { importId, ...counts };
}

/** Reads, decides and keeps one batch of lines. */
async function checkBatch(
  services: AppServices,
  importId: string,
  records: readonly CsvRecord[],
  columns: ColumnMap,
  facts: CatalogueFacts,
  state: FileState,
): Promise<StagedRow[]> {
  const { db } = services;
  const staged: StagedRow[] = [];
  const ready: (ReadyLine & { given: boolean })[] = [];
  for (const record of records) {
    const read = readLine(record.cells, columns, facts);
    if (!read.ok) {
      staged.push({ importId, line: record.row, email: read.email, member: null, action: "skip", reason: read.reason });
      continue;
    }
    const earlier = firstSeen(state.emails, read.member.email, record.row);
    if (earlier !== null) {
      const reason = `The e-mail address is on row ${earlier} already`;
      staged.push({ importId, line: record.row, email: read.member.email, member: null, action: "skip", reason });
      continue;
    }
    const given = read.member.username !== null;
    ready.push({ row: record.row, given, member: { ...read.member, username: read.member.username ?? "" } });
  }
  const existing = await existingMembers(
    db,
    ready.map((line) => line.member.email),
  );
  const creates = ready.filter((line) => !existing.has(line.member.email));
  const candidates = creates.map((line) =>
    line.given ? [line.member.username] : usernameCandidates(usernameFromEmail(line.member.email)),
  );
  const taken = await takenUsernames(db, candidates.flat());
  const refused = new Map<number, Plan>();
  creates.forEach((line, index) => {
    if (line.given) {
      const earlier = firstSeen(state.usernames, line.member.username, line.row);
      if (earlier !== null)
        refused.set(line.row, {
          action: "skip",
          reason: `The username ${line.member.username} is on row ${earlier} already`,
        });
      return;
    }
    const free = candidates[index]!.find((name) => !taken.has(name) && !state.usernames.has(name));
    line.member.username = free ?? `${usernameFromEmail(line.member.email).slice(0, 24)}-${line.row.toString(36)}`;
    state.usernames.set(line.member.username, line.row);
  });
  const decided = decideLines(ready, existing, taken);
  for (const line of ready) {
    const plan = refused.get(line.row) ?? decided.get(line.row)!;
    staged.push({
      importId,
      line: line.row,
      email: line.member.email,
      member: plan.action === "skip" ? null : plan.member,
      action: plan.action,
      reason: plan.reason,
    });
  }
  staged.sort((a, b) => a.line - b.line);
  if (staged.length > 0) await db.insert(memberImportRows).values(staged);
  return staged;
}
