import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { memberArchives, users } from "~/db/schema";
import { conflict, forbidden } from "~/domain/errors";
import { ARCHIVE_DAYS, archiveReadme, nextArchiveAt, utcDay, type ArchiveFile } from "~/domain/member-archive";
import { formatDate, formatDateTime } from "~/lib/format";
import { giveWay } from "~/lib/give-way.server";
import { createZip } from "~/lib/zip.server";
import { communityName } from "../accounts.server";
import { actorOf, audit } from "../audit.server";
import { enqueue, type JobDefinition, sweepJob } from "../queue.server";
import type { Viewer } from "../session.server";
import { issueToken } from "../tokens.server";
import { memberDocuments } from "./documents.server";
import { memberRecords } from "./records.server";

/**
 * "Download my data" (decision 050): a member asks on their profile; a job writes one ZIP of
 * their records and documents under DATA_DIR/archives on the server that runs it, then e-mails
 * them a link that works once, for them alone, for ARCHIVE_DAYS days. One archive a day.
 */

const DAY_MS = 86_400_000;
const HEARTBEAT_MS = 30_000;
const DEAD_AFTER_MS = 4 * HEARTBEAT_MS;
/** A queued archive no server took in this long (no job runner anywhere) is given up. */
const UNTAKEN_AFTER_MS = 30 * 60_000;
const PROGRESS_EVERY_MS = 500;

export const archiveDir = (services: AppServices) => path.join(services.config.dataDir, "archives");
export const archiveFileOf = (services: AppServices, id: string) => path.join(archiveDir(services), `${id}.zip`);
const partialOf = (services: AppServices, id: string) => path.join(archiveDir(services), `.${id}.zip.partial`);

const archiveData = z.object({ archiveId: z.string().uuid() });

export const memberArchiveJob = {
  name: "member-archive",
  data: archiveData,
  // A failed archive is marked failed with its reason; the member may ask again the same day.
  retry: { limit: 0, delaySeconds: 0 },
  timeoutSeconds: 30 * 60,
  async run(services, data, job) {
    await makeArchive(services, data.archiveId, job.signal);
  },
} satisfies JobDefinition<z.infer<typeof archiveData>>;

export const archiveSweepJob = sweepJob({
  name: "member-archives-sweep",
  schedule: "41 * * * *",
  async run(services) {
    await sweepArchives(services);
  },
});

async function markFailed(services: AppServices, archiveId: string, reason: string) {
  await services.db
    .update(memberArchives)
    .set({ status: "failed", error: reason.slice(0, 1000), finishedAt: new Date() })
    .where(and(eq(memberArchives.id, archiveId), inArray(memberArchives.status, ["queued", "running"])));
}

/** The member asks for their archive: queued, audited; refused when they had one today already. */
export async function requestArchive(services: AppServices, viewer: Viewer): Promise<string> {
  // An admin acting for a member is not the member: the data is theirs to ask for.
  if (viewer.agent) throw forbidden("Only the member can ask for their own data.");
  await sweepArchives(services);
  const now = new Date();
  const member = viewer.member;
  const [made] = await services.db
    .insert(memberArchives)
    .values({ userId: member.id, requestedOn: utcDay(now), createdAt: now })
    .onConflictDoNothing()
    .returning({ id: memberArchives.id });
  if (!made)
    throw conflict(
      `You asked for your data today already: one archive a day. You can ask again from ${formatDateTime(nextArchiveAt(now))}.`,
    );
  await audit(services.db, actorOf(viewer), "data.archive-requested", "user", member.id, { archiveId: made.id });
  await enqueue(services, memberArchiveJob, { archiveId: made.id });
  return made.id;
}

/** Writes the archive's file, then mails its link; a failure marks it failed with the reason. */
export async function makeArchive(services: AppServices, archiveId: string, signal?: AbortSignal): Promise<void> {
  const { db, logger } = services;
  const [archive] = await db
    .update(memberArchives)
    .set({ status: "running", host: os.hostname(), startedAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(memberArchives.id, archiveId), eq(memberArchives.status, "queued")))
    .returning();
  if (!archive) return;
  const partial = partialOf(services, archiveId);
  const heartbeat = setInterval(() => {
    void db
      .update(memberArchives)
      .set({ heartbeatAt: new Date() })
      .where(eq(memberArchives.id, archiveId))
      .catch(() => {});
  }, HEARTBEAT_MS);
  let zip: Awaited<ReturnType<typeof createZip>> | null = null;
  try {
    const [member] = await db.select().from(users).where(eq(users.id, archive.userId));
    if (!member) throw new Error("The member is gone.");
    const items = [...(await memberRecords(services, member)), ...(await memberDocuments(services, member))];
    await db
      .update(memberArchives)
      .set({ progressTotal: items.length + 1 })
      .where(eq(memberArchives.id, archiveId));
    await mkdir(archiveDir(services), { recursive: true, mode: 0o700 });
    await rm(partial, { force: true });
    zip = await createZip(partial);
    const written: ArchiveFile[] = [];
    const missing: ArchiveFile[] = [];
    const taken = new Set<string>();
    let reported = Date.now();
    for (const [i, item] of items.entries()) {
      if (signal?.aborted) throw new Error("The server stopped while the archive was being made.");
      const name = uniqueName(item.name, taken);
      try {
        await zip.add(name, await item.content());
        written.push({ name, about: item.about });
      } catch (error) {
        // A document the notary no longer gives, say, leaves the rest of the archive whole.
        if (!name.startsWith("documents/")) throw error;
        logger.warn({ err: error, archiveId, file: name }, "a document was left out of a member's archive");
        missing.push({ name, about: error instanceof Error ? error.message : String(error) });
      }
      if (Date.now() - reported >= PROGRESS_EVERY_MS) {
        reported = Date.now();
        await db
          .update(memberArchives)
          .set({ progressDone: i + 1, heartbeatAt: new Date() })
          .where(eq(memberArchives.id, archiveId));
      }
      await giveWay();
    }
    const madeAt = new Date();
    const readme = archiveReadme({
      community: communityName(services),
      username: member.username,
      madeAt,
      files: [{ name: "README.txt", about: "this file" }, ...written],
      missing,
    });
    await zip.add("README.txt", readme);
    const bytes = await zip.close();
    zip = null;
    await rename(partial, archiveFileOf(services, archiveId));
    const expiresAt = new Date(madeAt.getTime() + ARCHIVE_DAYS * DAY_MS);
    // Done once its link is mailed: an archive whose mail failed is failed, and its file swept.
    await mailLink(services, member, archiveId, expiresAt);
    const [done] = await db
      .update(memberArchives)
      .set({ status: "done", bytes, progressDone: items.length + 1, finishedAt: madeAt, expiresAt })
      .where(and(eq(memberArchives.id, archiveId), eq(memberArchives.status, "running")))
      .returning({ id: memberArchives.id });
    if (!done) throw new Error("The archive was given up while it was being made.");
    await audit(db, { actorUserId: null, agentUserId: null }, "data.archive-made", "user", member.id, {
      archiveId,
      bytes,
      files: written.length + 1,
    });
  } catch (error) {
    await zip?.abort();
    for (const file of [partial, archiveFileOf(services, archiveId)]) await rm(file, { force: true }).catch(() => {});
    await markFailed(services, archiveId, error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

/** A second file of one name (two versions whose names read alike) gets a number. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n += 1) candidate = name.replace(/(\.\w+)?$/, `-${n}$1`);
  taken.add(candidate);
  return candidate;
}

async function mailLink(services: AppServices, member: typeof users.$inferSelect, archiveId: string, until: Date) {
  const { config } = services;
  const token = await issueToken(services.db, "data_archive", member.id, until.getTime() - Date.now(), { archiveId });
  await services.providers.mail.send({
    to: member.email,
    template: "data-archive",
    subject: "Your data is ready to download",
    text: [
      `Hello ${member.username},`,
      "",
      `The archive of your data at ${communityName(services)} is ready. Sign in as ${member.username} and open this link to download it. It works once, until ${formatDateTime(until)}:`,
      "",
      `${config.baseUrl}/profile/data/${token}`,
      "",
      `If you did not ask for it, change your password and write to ${config.supportEmail}.`,
    ].join("\n"),
  });
}

/**
 * Marks failed the archives a stopped server left under way, expires those past their days,
 * and removes from this server's folder every file no archive needs any more.
 */
export async function sweepArchives(services: AppServices): Promise<void> {
  const { db } = services;
  const now = Date.now();
  const dead = await db
    .select({ id: memberArchives.id })
    .from(memberArchives)
    .where(
      or(
        and(eq(memberArchives.status, "running"), lt(memberArchives.heartbeatAt, new Date(now - DEAD_AFTER_MS))),
        and(eq(memberArchives.status, "queued"), lt(memberArchives.createdAt, new Date(now - UNTAKEN_AFTER_MS))),
      ),
    );
  for (const { id } of dead) await markFailed(services, id, "The archive was not finished: please ask again.");
  await db
    .update(memberArchives)
    .set({ status: "expired" })
    .where(and(eq(memberArchives.status, "done"), lt(memberArchives.expiresAt, new Date(now))));
  const dir = archiveDir(services);
  if (!existsSync(dir)) return;
  const files = await readdir(dir);
  const ids = files.map((f) => /^\.?([0-9a-f-]{36})\.zip(\.partial)?$/.exec(f)?.[1]).filter((id): id is string => !!id);
  const kept = ids.length
    ? await db
        .select({ id: memberArchives.id, status: memberArchives.status, downloadedAt: memberArchives.downloadedAt })
        .from(memberArchives)
        .where(inArray(memberArchives.id, ids))
    : [];
  for (const name of files) {
    const match = /^\.?([0-9a-f-]{36})\.zip(\.partial)?$/.exec(name);
    if (!match) continue;
    const row = kept.find((k) => k.id === match[1]);
    const needed = match[2] ? row?.status === "running" : row?.status === "done" && !row.downloadedAt;
    if (!needed) await rm(path.join(dir, name), { force: true });
  }
}

/**
 * Where an archive stands, in the words of the profile's section; a ready one is downloaded there
 * by the member signed in as themselves (`own`), by an admin acting for them only through the link.
 */
function archiveState(archive: typeof memberArchives.$inferSelect, email: string, own: boolean): string {
  const asked = formatDateTime(archive.createdAt);
  switch (archive.status) {
    case "queued":
    case "running":
      return archive.progressTotal > 0
        ? `Your archive is being made (asked for ${asked}): ${archive.progressDone} of ${archive.progressTotal} files.`
        : `Your archive is being made (asked for ${asked}): it starts in a moment.`;
    case "done":
      return archive.downloadedAt
        ? `You downloaded your archive of ${asked}.`
        : own
          ? `Your archive of ${asked} is ready: download it here, or with the link we e-mailed to ${email}. It can be downloaded once, until ${formatDate(archive.expiresAt!)}.`
          : `Your archive of ${asked} is ready: we e-mailed a link to ${email}. It works once, for you signed in, until ${formatDate(archive.expiresAt!)}.`;
    case "failed":
      return `Your archive of ${asked} could not be made. Please ask again.`;
    case "expired":
      return `Your archive of ${asked} has expired.`;
  }
}

/** The profile's section: where the member's latest archive stands, and when they may ask for the next. */
export async function archiveSection(services: AppServices, viewer: Viewer) {
  const [latest] = await services.db
    .select()
    .from(memberArchives)
    .where(eq(memberArchives.userId, viewer.member.id))
    .orderBy(desc(memberArchives.createdAt))
    .limit(1);
  const now = new Date();
  const running = latest?.status === "queued" || latest?.status === "running";
  const own = !viewer.agent;
  const ready = latest?.status === "done" && !latest.downloadedAt && latest.expiresAt! > now;
  return {
    state: latest ? archiveState(latest, viewer.member.email, own) : null,
    /** The ready archive the profile's "Download your data" gives (openOwnArchive checks it again). */
    download: ready && own ? { archiveId: latest.id } : null,
    running,
    progress: running && latest.progressTotal > 0 ? { done: latest.progressDone, total: latest.progressTotal } : null,
    nextAt:
      latest && latest.status !== "failed" && latest.requestedOn === utcDay(now)
        ? formatDateTime(nextArchiveAt(now))
        : null,
  };
}
