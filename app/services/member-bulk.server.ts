import { and, inArray, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { users } from "~/db/schema";
import type { ListQuery } from "~/domain/listing";
import type { MemberBulkAction } from "~/domain/member-list";
import { isDomainError } from "~/domain/errors";
import { audit, actorOf, reachedMembers } from "./audit.server";
import { grantComplimentary, grantorOf } from "./billing/complimentary.server";
import { listWhere } from "./listing.server";
import { mailMembers, memberListing, membersMailJob } from "./member-listing.server";
import { enqueue } from "./queue.server";
import type { Viewer } from "./session.server";

/**
 * The members list's bulk actions. A flag is set or cleared in one statement, on the members
 * ticked or on every member the filter matches; an e-mail goes at once to the members ticked,
 * and to a whole filter result from a background job. Each action is audited once, with its
 * selection and how many members it reached.
 */
export async function bulkMemberAction(
  services: AppServices,
  admin: Viewer,
  action: MemberBulkAction,
  query: ListQuery,
): Promise<{ reached: number; queued: boolean; skipped?: number; names?: string[] }> {
  const { db } = services;
  const actor = actorOf(admin);
  const selection = action.ids === "all" ? { filters: query.filters } : { ids: action.ids.length };
  if (action.kind === "export") throw new Error("An export is a download, not a change");
  if (action.kind === "complimentary") return grantToEach(services, admin, action);
  if (action.kind === "email") {
    if (action.ids === "all") {
      await enqueue(services, membersMailJob, {
        filters: query.filters,
        subject: action.subject,
        body: action.body,
        actor,
      });
      return { reached: 0, queued: true };
    }
    const reached = await mailMembers(services, action.ids, action);
    await audit(db, actor, "members.bulk.email", "user", null, { selection, ...reachedMembers(reached) });
    return { reached: reached.length, queued: false };
  }
  const column = action.flag === "nolCreator" ? users.nolCreator : users.nolTester;
  const chosen = action.ids === "all" ? listWhere(memberListing, query.filters) : inArray(users.id, [...action.ids]);
  const changed = await db
    .update(users)
    .set({ [action.flag]: action.value, updatedAt: new Date() })
    .where(and(chosen, sql`${column} is distinct from ${action.value}`))
    .returning({ id: users.id, username: users.username });
  // Who was changed, by name: the log and the message say it (the first few, with the count).
  const names = changed.map((u) => u.username).sort((a, b) => a.localeCompare(b));
  await audit(db, actor, `members.bulk.${action.value ? "set" : "clear"}-${action.flag}`, "user", null, {
    selection,
    ...reachedMembers(changed),
  });
  return { reached: changed.length, queued: false, names };
}

/**
 * A complimentary membership for each member ticked (each granted and audited as from their
 * page); a member who pays for a membership is left as they are, and counted.
 */
async function grantToEach(
  services: AppServices,
  admin: Viewer,
  action: Extract<MemberBulkAction, { kind: "complimentary" }>,
): Promise<{ reached: number; queued: false; skipped: number }> {
  let reached = 0;
  let skipped = 0;
  for (const id of action.ids) {
    try {
      await grantComplimentary(services, grantorOf(admin), id, action);
      reached += 1;
    } catch (error) {
      // The terms are the same for all: refused for one, they are refused for all.
      if (!isDomainError(error) || error.kind !== "conflict") throw error;
      skipped += 1;
    }
  }
  return { reached, queued: false, skipped };
}
