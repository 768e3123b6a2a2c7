import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { memberImportRows, memberImports, users } from "~/db/schema";
import { INVITATION_TTL_DAYS } from "~/domain/account-text";
import { communityName } from "../accounts.server";
import { enqueue, type JobDefinition } from "../queue.server";
import { issueToken } from "../tokens.server";

/**
 * The invitations of an import's new members (decision 038): they have no password, and an
 * e-mail with a link lets each choose one. Sent through the mail provider a few at a time, so a
 * large import does not flood the mail server: each run sends one batch and queues the next a
 * minute later.
 */

/** Invitations sent per minute. */
export const INVITATIONS_PER_MINUTE = 100;

const invitationData = z.object({ importId: z.string().uuid() });

export const importInvitationsJob = {
  name: "members-import-invitations",
  data: invitationData,
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  async run(services, data) {
    const left = await sendInvitations(services, data.importId, INVITATIONS_PER_MINUTE);
    if (left > 0) await enqueue(services, importInvitationsJob, data, { startAfter: 60 });
  },
} satisfies JobDefinition<z.infer<typeof invitationData>>;

/** Sends up to `count` invitations of the import; resolves with how many are left to send. */
export async function sendInvitations(services: AppServices, importId: string, count: number): Promise<number> {
  const { db, config } = services;
  const due = await db
    .select({ line: memberImportRows.line, userId: users.id, email: users.email, username: users.username })
    .from(memberImportRows)
    .innerJoin(users, eq(users.id, memberImportRows.userId))
    .where(
      and(
        eq(memberImportRows.importId, importId),
        eq(memberImportRows.outcome, "create"),
        isNull(memberImportRows.invitedAt),
      ),
    )
    .orderBy(asc(memberImportRows.line))
    .limit(count + 1);
  const community = communityName(services);
  for (const member of due.slice(0, count)) {
    // Marked first: a run cut short after the mail leaves sends no second invitation.
    const [claimed] = await db
      .update(memberImportRows)
      .set({ invitedAt: new Date() })
      .where(
        and(
          eq(memberImportRows.importId, importId),
          eq(memberImportRows.line, member.line),
          isNull(memberImportRows.invitedAt),
        ),
      )
      .returning({ line: memberImportRows.line });
    if (!claimed) continue;
    const token = await issueToken(db, "invitation", member.userId, INVITATION_TTL_DAYS * 86_400_000);
    await services.providers.mail.send({
      to: member.email,
      template: "member-invitation",
      subject: `Your membership of ${community}: choose a password`,
      text: `Hello ${member.username},\n\nYou are a member of ${community} on its new members site. Choose a password by opening this link within ${INVITATION_TTL_DAYS} days; then log in with your e-mail address or the username ${member.username}.\n\n${config.baseUrl}/login/welcome?token=${token}\n\nIf you did not expect this, ignore this message.`,
    });
    await db
      .update(memberImports)
      .set({ invited: sql`${memberImports.invited} + 1` })
      .where(eq(memberImports.id, importId));
  }
  return Math.max(0, due.length - count);
}
