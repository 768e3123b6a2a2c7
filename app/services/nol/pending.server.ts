import { z } from "zod";
import type { AppServices } from "~/context";
import { pendingSubmissions } from "~/db/schema";
import { forbidden } from "~/domain/errors";
import { audit, actorOf } from "../audit.server";
import type { UserRow, Viewer } from "../session.server";
import { causeOpenTo, requireCauseCode, resolveOwner } from "./access.server";
import { requireOwnEntry } from "./entries.server";

/** Pending records (spec §4 "Submission"): a form was sent and its entry is on its way. */

export const pendingBodySchema = z.object({
  username: z.string().min(1).max(32),
  cause: z.string().min(1).max(40),
  descriptive_version: z.string().trim().min(1).max(120),
  prior_rows: z.number().int().min(0).max(10_000),
  entry_id: z.string().max(40).nullable().optional(),
  prior_updated: z.string().datetime({ offset: true }).nullable().optional(),
});
export type PendingBody = z.infer<typeof pendingBodySchema>;

export async function recordPending(services: AppServices, viewer: Viewer, owner: UserRow, body: PendingBody) {
  const [row] = await services.db
    .insert(pendingSubmissions)
    .values({
      userId: owner.id,
      username: owner.username,
      causeCode: body.cause,
      descriptiveVersion: body.descriptive_version,
      priorRows: body.prior_rows,
      entryId: body.entry_id ?? null,
      priorUpdated: body.prior_updated ? new Date(body.prior_updated) : null,
    })
    .returning();
  await audit(services.db, actorOf(viewer), "nol.submitted", "pending_submission", row!.id);
  return row!;
}

/**
 * POST /api/entry/cognito-submitted: the owner must be readable by the viewer, the cause
 * exist and be open to the owner, and a named entry be the owner's.
 */
export async function submitPending(services: AppServices, viewer: Viewer, body: PendingBody) {
  const owner = await resolveOwner(services.db, viewer, body.username);
  await requireCauseCode(services.db, body.cause);
  if (!(await causeOpenTo(services, owner, body.cause))) throw forbidden("This cause is not open to this member");
  if (body.entry_id) await requireOwnEntry(services.db, owner.id, body.entry_id);
  return recordPending(services, viewer, owner, body);
}
