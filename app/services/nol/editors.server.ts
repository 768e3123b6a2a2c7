import { and, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { nolEditors, users } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";
import { memberByUsername } from "./access.server";

/** The editors of a member's notices (authEditor): who may continue them for the member. */

/** The members on one side of the editor pairs whose other side is the member. */
function editorPairs(db: Database, side: "owner" | "editor", memberId: string) {
  const [listed, given] =
    side === "editor"
      ? [nolEditors.editorUserId, nolEditors.ownerUserId]
      : [nolEditors.ownerUserId, nolEditors.editorUserId];
  return db
    .select({ username: users.username, email: users.email })
    .from(nolEditors)
    .innerJoin(users, eq(users.id, listed))
    .where(eq(given, memberId))
    .orderBy(users.username);
}

/** GET /api/entry/nol-editors: who may edit the member's notices, and whose the member may edit. */
export async function editorsOf(db: Database, memberId: string) {
  return { editors: await editorPairs(db, "editor", memberId), editing: await editorPairs(db, "owner", memberId) };
}

export async function addEditor(services: AppServices, viewer: Viewer, username: string): Promise<void> {
  const editor = await memberByUsername(services.db, username);
  if (!editor || editor.disabledAt)
    throw invalid("No member has that username", { username: ["No member has that username"] });
  if (editor.id === viewer.member.id)
    throw invalid("You already edit your own notices", { username: ["You already edit your own notices"] });
  await services.db
    .insert(nolEditors)
    .values({ ownerUserId: viewer.member.id, editorUserId: editor.id })
    .onConflictDoNothing();
  await audit(services.db, actorOf(viewer), "nol.editor.add", "user", editor.id);
}

export async function removeEditor(services: AppServices, viewer: Viewer, username: string): Promise<void> {
  const editor = await memberByUsername(services.db, username);
  if (!editor) return;
  await services.db
    .delete(nolEditors)
    .where(and(eq(nolEditors.ownerUserId, viewer.member.id), eq(nolEditors.editorUserId, editor.id)));
  await audit(services.db, actorOf(viewer), "nol.editor.remove", "user", editor.id);
}
