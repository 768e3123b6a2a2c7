import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { memberImportRows, memberImports, newsletterSubscriptions, users } from "~/db/schema";
import { invalid, isDomainError, notFound } from "~/domain/errors";
import { usernameFromEmail, type ImportedMember, type Plan } from "~/domain/member-import";
import { giveWay } from "~/lib/give-way.server";
import { actorOf, audit } from "../audit.server";
import { grantComplimentary, type Grantor } from "../billing/complimentary.server";
import type { Tx } from "../billing/payment-records.server";
import { enqueue, type JobDefinition } from "../queue.server";
import type { Viewer } from "../session.server";
import { tokenHash } from "../tokens.server";
import { importInvitationsJob } from "./invite.server";
import { planLines, type ReadyLine } from "./plan.server";

/**
 * The import itself (decision 038), a background job: the lines the dry run kept are decided
 * again against the members as they are now and written a batch at a time, each batch in one
 * transaction with the count of lines done, so a reload shows the progress and a server that
 * stops mid-way leaves whole batches only: the job, tried again, goes on from the next line.
 * A job's run does a chunk of batches and queues the next chunk.
 */

/**
 * Lines written in one transaction, the event loop given a turn after each. The embedded
 * database runs a transaction in this process and holds it meanwhile: 1,000 new members (their
 * rows, indexes and newsletter lines) held it for up to a second under load. On PostgreSQL only
 * the batch's own work is here (reading the lines, building the statements): 500 lines keep it
 * well under the 100 ms that another request may wait (`npm run bench:import` measures it).
 */
export const IMPORT_BATCH = { pglite: 50, postgres: 500 } as const;
/** How long one run of the job goes on before it queues the next. */
const CHUNK_MS = 20_000;

const importData = z.object({ importId: z.string().uuid() });
const IMPORT_RETRIES = 5;

export const memberImportJob = {
  name: "members-import",
  data: importData,
  // A run lasts CHUNK_MS and a batch; one cut short by a stopped server is tried again soon.
  timeoutSeconds: 90,
  retry: { limit: IMPORT_RETRIES, delaySeconds: 5, backoff: true },
  async run(services, data, job) {
    try {
      await importChunk(services, data.importId, CHUNK_MS, job.signal);
    } catch (error) {
      if (job.retryCount >= IMPORT_RETRIES) {
        const message = error instanceof Error ? error.message : String(error);
        await services.db
          .update(memberImports)
          .set({ status: "failed", error: message.slice(0, 500), finishedAt: new Date() })
          .where(eq(memberImports.id, data.importId));
      }
      throw error;
    }
  },
} satisfies JobDefinition<z.infer<typeof importData>>;

/** An admin starts a checked import: it is queued, and the page shows its progress. */
export async function startImport(services: AppServices, admin: Viewer, importId: string): Promise<void> {
  const [started] = await services.db
    .update(memberImports)
    .set({ status: "queued", startedAt: new Date() })
    .where(and(eq(memberImports.id, importId), eq(memberImports.status, "checked")))
    .returning({ id: memberImports.id });
  if (!started) throw invalid("This import has started already, or is no longer there.");
  await enqueue(services, memberImportJob, { importId });
  await audit(services.db, actorOf(admin), "members.import.start", "member-import", importId);
}

/** An admin throws away an import that has not started. */
export async function discardImport(services: AppServices, importId: string): Promise<void> {
  const gone = await services.db
    .delete(memberImports)
    .where(and(eq(memberImports.id, importId), eq(memberImports.status, "checked")))
    .returning({ id: memberImports.id });
  if (gone.length === 0) throw invalid("Only an import that has not started can be discarded.");
}

/** One run of the job: a batch, and more for up to `chunkMs`; then the next run is queued, or the import ends. */
export async function importChunk(
  services: AppServices,
  importId: string,
  chunkMs = CHUNK_MS,
  /** Aborted when the server stops: the run ends after its batch and queues the next. */
  signal?: AbortSignal,
): Promise<void> {
  const { db } = services;
  const [current] = await db.select().from(memberImports).where(eq(memberImports.id, importId));
  if (!current) throw notFound("No such import");
  if (current.status !== "queued" && current.status !== "running") return;
  if (current.status === "queued")
    await db.update(memberImports).set({ status: "running" }).where(eq(memberImports.id, importId));
  const grantor = { userId: current.adminId, actor: { actorUserId: current.adminId, agentUserId: null } };
  // Grants a run cut short between its batch and the batch's grants left behind.
  await grantAll(services, importId, grantor, await ungranted(services, importId));
  const until = Date.now() + chunkMs;
  let more: boolean;
  do {
    const size = IMPORT_BATCH[services.database.driver];
    const batch = await importBatch(services, importId, size);
    await giveWay();
    await grantAll(services, importId, grantor, batch.grants);
    // A batch short of full was the last.
    more = batch.lines === size;
    // The embedded database runs in this process: between batches, the pages have their turn.
    await giveWay();
  } while (more && Date.now() < until && !signal?.aborted);
  if (more) {
    await enqueue(services, memberImportJob, { importId });
    return;
  }
  const [done] = await db
    .update(memberImports)
    .set({ status: "done", finishedAt: new Date() })
    .where(and(eq(memberImports.id, importId), eq(memberImports.status, "running")))
    .returning();
  if (!done) return;
  // The lists past their exact count show the planner's estimate, which a bulk write leaves
  // stale (on PostgreSQL until autovacuum gets to it, on the embedded database for good).
  if (done.created > 0) await db.execute(sql`analyze ${users}`);
  await audit(db, { actorUserId: done.adminId, agentUserId: null }, "members.import.done", "member-import", importId, {
    created: done.created,
    updated: done.updated,
    skipped: done.skipped,
  });
  if (done.invite && done.created > 0) await enqueue(services, importInvitationsJob, { importId });
}

type Outcome = { line: number; outcome: Plan["action"]; reason: string; userId: string | null };

/** A complimentary membership a line asks for, once its member is written. */
type Grant = { line: number; userId: string; member: ImportedMember };

/**
 * Imports the next batch of lines in one transaction; resolves with how many lines it did and
 * the complimentary memberships they ask for.
 */
async function importBatch(
  services: AppServices,
  importId: string,
  size: number,
): Promise<{ lines: number; grants: Grant[] }> {
  return services.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(memberImportRows)
      .where(and(eq(memberImportRows.importId, importId), isNull(memberImportRows.outcome)))
      .orderBy(asc(memberImportRows.line))
      .limit(size);
    if (rows.length === 0) return { lines: 0, grants: [] };
    const ready: ReadyLine[] = [];
    const outcomes: Outcome[] = [];
    for (const row of rows) {
      const member = row.member as (ImportedMember & { username: string }) | null;
      if (row.action === "skip" || !member)
        outcomes.push({ line: row.line, outcome: "skip", reason: row.reason, userId: null });
      else ready.push({ row: row.line, member });
    }
    const plans = await planLines(tx, ready);
    const creates: { line: number; member: ImportedMember & { username: string }; reason: string }[] = [];
    for (const line of ready) {
      const plan = plans.get(line.row)!;
      if (plan.action === "create") creates.push({ line: line.row, member: line.member, reason: plan.reason });
      else if (plan.action === "update") {
        await updateMember(tx, plan.existing.id, plan.member);
        outcomes.push({ line: line.row, outcome: "update", reason: plan.reason, userId: plan.existing.id });
      } else outcomes.push({ line: line.row, outcome: "skip", reason: plan.reason, userId: null });
    }
    outcomes.push(...(await createMembers(tx, creates)));
    const written = new Map(outcomes.filter((o) => o.userId !== null).map((o) => [o.line, o.userId!]));
    const writtenLines = ready.filter((line) => written.has(line.row));
    await subscribeToNewsletter(
      tx,
      writtenLines.filter((line) => line.member.newsletter),
    );
    await recordOutcomes(tx, importId, outcomes);
    const grants = writtenLines
      .filter((line) => line.member.plan)
      .map((line) => ({ line: line.row, userId: written.get(line.row)!, member: line.member }));
    return { lines: rows.length, grants };
  });
}

/** New members, with no password: an invitation lets them choose one. */
async function createMembers(
  tx: Tx,
  creates: { line: number; member: ImportedMember & { username: string }; reason: string }[],
): Promise<Outcome[]> {
  if (creates.length === 0) return [];
  const now = new Date();
  const made = await tx
    .insert(users)
    .values(
      creates.map(({ member }) => ({
        // A line the dry run found a member for has no username of its own: that member has gone since.
        username: member.username || usernameFromEmail(member.email),
        email: member.email,
        name: member.name,
        countryCode: member.country,
        labels: member.labels,
        createdAt: member.createdAt ? new Date(member.createdAt) : now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  const ids = new Map(made.map((row) => [row.email, row.id]));
  return creates.map(({ line, member, reason }) => {
    const id = ids.get(member.email);
    return id
      ? { line, outcome: "create" as const, reason, userId: id }
      : { line, outcome: "skip" as const, reason: "The e-mail or username was taken during the import", userId: null };
  });
}

const LABEL_QUOTES = `"'“”‘’„«» `;

/** What the file gives of a member already here: a name or country it has, labels added to theirs. */
async function updateMember(tx: Tx, id: string, member: ImportedMember): Promise<void> {
  await tx
    .update(users)
    .set({
      ...(member.name ? { name: member.name } : {}),
      ...(member.country ? { countryCode: member.country } : {}),
      // Labels an earlier import kept with their quotes (`"Volunteers"`) lose them as the new ones join.
      labels: sql`array(select distinct label from (select btrim(l, ${LABEL_QUOTES}) as label from unnest(${users.labels}
        || array(select jsonb_array_elements_text(${JSON.stringify(member.labels)}::jsonb))) l) cleaned
        where label <> '' order by 1)`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, id));
}

/** The newsletter, for those the file says agreed to it and who have not answered it here already. */
async function subscribeToNewsletter(tx: Tx, lines: ReadyLine[]): Promise<void> {
  if (lines.length === 0) return;
  const now = new Date().toISOString();
  const values = sql.join(
    lines.map(
      (line) =>
        sql`(${line.member.email}, 'confirmed', ${now}::timestamptz, ${tokenHash(randomBytes(32).toString("base64url"))})`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${newsletterSubscriptions} (email, status, confirmed_at, unsubscribe_token_hash) values ${values}
    on conflict (lower(email)) do update set status = 'confirmed', confirmed_at = excluded.confirmed_at,
      confirm_token_hash = null, updated_at = now()
    where ${newsletterSubscriptions}.status = 'pending'`);
}

async function recordOutcomes(tx: Tx, importId: string, outcomes: Outcome[]): Promise<void> {
  await tx.execute(sql`
    update ${memberImportRows} r
    set outcome = v.outcome::member_import_action, outcome_reason = v.reason, user_id = v.user_id
    from jsonb_to_recordset(${JSON.stringify(outcomes.map(({ userId, ...o }) => ({ ...o, user_id: userId })))}::jsonb) as v(line int, outcome text, reason text, user_id uuid)
    where r.import_id = ${importId} and r.line = v.line`);
  const count = (kind: Plan["action"]) => outcomes.filter((o) => o.outcome === kind).length;
  await tx
    .update(memberImports)
    .set({
      processed: sql`${memberImports.processed} + ${outcomes.length}`,
      created: sql`${memberImports.created} + ${count("create")}`,
      updated: sql`${memberImports.updated} + ${count("update")}`,
      skipped: sql`${memberImports.skipped} + ${count("skip")}`,
    })
    .where(eq(memberImports.id, importId));
}

/** Lines whose member is written but whose complimentary membership is not granted yet. */
async function ungranted(services: AppServices, importId: string): Promise<Grant[]> {
  const rows = await services.db
    .select({ line: memberImportRows.line, userId: memberImportRows.userId, member: memberImportRows.member })
    .from(memberImportRows)
    .where(
      and(
        eq(memberImportRows.importId, importId),
        inArray(memberImportRows.outcome, ["create", "update"]),
        isNotNull(memberImportRows.userId),
        isNull(memberImportRows.grantedAt),
        sql`${memberImportRows.member}->>'plan' is not null`,
      ),
    )
    .orderBy(asc(memberImportRows.line));
  return rows.map((row) => ({ line: row.line, userId: row.userId!, member: row.member as ImportedMember }));
}

/** The complimentary memberships the imported lines ask for, each granted (and audited) as from a member's page. */
async function grantAll(services: AppServices, importId: string, grantor: Grantor, grants: Grant[]): Promise<void> {
  const { db } = services;
  for (const { line, userId, member } of grants) {
    let note: string | null = null;
    try {
      await grantComplimentary(services, grantor, userId, {
        planId: member.plan!,
        endsOn: member.planEndsOn ?? undefined,
        note: "Imported",
      });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      note = `No complimentary membership: ${error.message}`;
    }
    // Each grant is several queries; on the embedded database they would run back to back.
    await giveWay();
    await db
      .update(memberImportRows)
      .set({
        grantedAt: new Date(),
        ...(note
          ? { outcomeReason: sql`concat_ws('. ', nullif(${memberImportRows.outcomeReason}, ''), ${note}::text)` }
          : {}),
      })
      .where(and(eq(memberImportRows.importId, importId), eq(memberImportRows.line, line)));
  }
}
