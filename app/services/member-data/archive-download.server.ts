import { createReadStream, existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { memberArchives, oneTimeTokens } from "~/db/schema";
import { archiveDownloadName } from "~/domain/member-archive";
import { formatDateTime } from "~/lib/format";
import { actorOf, audit } from "../audit.server";
import type { Viewer } from "../session.server";
import { consumeToken, tokenHash } from "../tokens.server";
import { archiveFileOf } from "./archive.server";

/**
 * The archive's file, two ways (decision 050): the e-mailed link, and the profile's "Download
 * your data" for the member signed in as themselves. Either gives it once; then its file goes.
 */

type ArchiveRow = typeof memberArchives.$inferSelect;

/** Why no file is given: the page says why and what to do. */
export type ArchiveRefusal =
  | { reason: "not-yours" }
  | { reason: "used"; on: string | null }
  | { reason: "expired"; on: string | null }
  | { reason: "gone" }
  | { reason: "elsewhere" };

export type ArchiveDownload = { body: ReadableStream<Uint8Array>; bytes: number | null; fileName: string };

/** An archive of the member's, ready and not yet downloaded, whose file is on this server; else why not. */
function refusalOf(
  services: AppServices,
  viewer: Viewer,
  archive: ArchiveRow | undefined,
  now: Date,
): ArchiveRefusal | null {
  // An admin acting for a member is not the member: the data is theirs alone to take.
  if (!archive || archive.userId !== viewer.user.id || viewer.agent) return { reason: "not-yours" };
  if (archive.downloadedAt) return { reason: "used", on: formatDateTime(archive.downloadedAt) };
  const expiresAt = archive.expiresAt;
  if (archive.status === "expired" || (expiresAt && expiresAt <= now))
    return { reason: "expired", on: expiresAt ? formatDateTime(expiresAt) : null };
  if (archive.status !== "done" || !existsSync(archiveFileOf(services, archive.id))) {
    const elsewhere = archive.status === "done" && archive.host && archive.host !== os.hostname();
    return { reason: elsewhere ? "elsewhere" : "gone" };
  }
  return null;
}

/** The e-mailed link's code: the archive it opens, and why it gives no file (null: it gives it). */
async function linkOf(services: AppServices, viewer: Viewer, token: string) {
  const [link] = await services.db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.purpose, "data_archive"), eq(oneTimeTokens.tokenHash, tokenHash(token))));
  if (!link) return null;
  const archiveId = z
    .string()
    .uuid()
    .safeParse((link.data as { archiveId?: unknown } | null)?.archiveId);
  const [archive] = archiveId.success
    ? await services.db.select().from(memberArchives).where(eq(memberArchives.id, archiveId.data))
    : [];
  const now = new Date();
  const refusal = (): ArchiveRefusal | null => {
    if (link.userId !== viewer.user.id || viewer.agent) return { reason: "not-yours" };
    if (!archive) return { reason: "gone" };
    const held = refusalOf(services, viewer, archive, now);
    if (held) return held;
    if (link.usedAt) return { reason: "used", on: formatDateTime(link.usedAt) };
    if (link.expiresAt <= now) return { reason: "expired", on: formatDateTime(link.expiresAt) };
    return null;
  };
  return { archive, refusal: refusal() };
}

/** Why the e-mailed link gives no file to this viewer; null when it gives it, undefined for a code that is none of ours. */
export async function archiveLinkRefusal(
  services: AppServices,
  viewer: Viewer,
  token: string,
): Promise<ArchiveRefusal | null | undefined> {
  const link = await linkOf(services, viewer, token);
  return link ? link.refusal : undefined;
}

/** The e-mailed link's file, using up its code; or why not. */
export async function openArchiveLink(
  services: AppServices,
  viewer: Viewer,
  token: string,
): Promise<ArchiveDownload | ArchiveRefusal> {
  const link = await linkOf(services, viewer, token);
  if (!link) return { reason: "not-yours" };
  if (link.refusal) return link.refusal;
  if (!(await consumeToken(services.db, "data_archive", token))) return { reason: "used", on: null };
  return send(services, viewer, link.archive!);
}

/** The profile's "Download your data": the archive's file for the member it was made for, signed in as themselves. */
export async function openOwnArchive(
  services: AppServices,
  viewer: Viewer,
  archiveId: string,
): Promise<ArchiveDownload | ArchiveRefusal> {
  const id = z.string().uuid().safeParse(archiveId);
  const [archive] = id.success
    ? await services.db.select().from(memberArchives).where(eq(memberArchives.id, id.data))
    : [];
  const refusal = refusalOf(services, viewer, archive, new Date());
  return refusal ?? send(services, viewer, archive!);
}

/** Marks the archive downloaded (once, however many ask at the same time), then streams its file and removes it. */
async function send(
  services: AppServices,
  viewer: Viewer,
  archive: ArchiveRow,
): Promise<ArchiveDownload | ArchiveRefusal> {
  const { db } = services;
  const [taken] = await db
    .update(memberArchives)
    .set({ downloadedAt: new Date() })
    .where(and(eq(memberArchives.id, archive.id), isNull(memberArchives.downloadedAt)))
    .returning({ id: memberArchives.id });
  if (!taken) return { reason: "used", on: null };
  await audit(db, actorOf(viewer), "data.archive-downloaded", "user", viewer.user.id, { archiveId: archive.id });
  const file = archiveFileOf(services, archive.id);
  const stream = createReadStream(file);
  stream.once("close", () => {
    void rm(file, { force: true }).catch(() => {});
  });
  return {
    body: createReadableStreamFromReadable(stream),
    bytes: archive.bytes,
    fileName: archiveDownloadName(archive.createdAt),
  };
}

export const isRefusal = (answer: ArchiveDownload | ArchiveRefusal): answer is ArchiveRefusal => "reason" in answer;

/** The refusal in words: why there is no file, and what the member can do. */
export function refusalWords(refusal: ArchiveRefusal): { status: number; why: string; todo: string } {
  const askAgain = "Ask for a new archive on your profile: you can ask for one a day.";
  switch (refusal.reason) {
    case "not-yours":
      return {
        status: 403,
        why: "This archive is not yours. A member's data archive opens only for that member, signed in as themselves: not for another member, nor for an admin.",
        todo: "If the archive is yours, log out, sign in as yourself and open the link again. To have your own data, ask for it on your profile.",
      };
    case "used":
      return {
        status: 410,
        why: `This archive was downloaded already${refusal.on ? ` (${refusal.on})` : ""}. Each archive can be downloaded once, and it is no longer kept here.`,
        todo: askAgain,
      };
    case "expired":
      return {
        status: 410,
        why: `This archive has expired${refusal.on ? ` (${refusal.on})` : ""}: an archive is kept for a week, and it is no longer here.`,
        todo: askAgain,
      };
    case "gone":
      return { status: 410, why: "This archive is no longer here.", todo: askAgain };
    case "elsewhere":
      return {
        status: 503,
        why: "Your archive is on another of our servers just now.",
        todo: "Try again in a moment. If it still does not open, ask for a new archive on your profile.",
      };
  }
}
