import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { NAMED_MEMBERS_MAX } from "~/domain/audit-words";
import type { Viewer } from "./viewer.server";

export type AuditActor = { actorUserId: string | null; agentUserId: string | null; ip?: string | null };

/**
 * Records a write (or an admin's read of a member's personal page): who did it, in agent mode
 * for whom, and from where. The log is append-only: the database refuses changes to it.
 */
export async function audit(
  db: Database,
  actor: AuditActor,
  action: string,
  entity: string,
  entityId: string | null,
  data?: Record<string, unknown>,
): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: actor.actorUserId,
    agentUserId: actor.agentUserId,
    action,
    entity,
    entityId,
    data: data ?? null,
    ip: actor.ip ?? null,
  });
}

/**
 * Who did it, for the log: the person signed in, the member they represent in agent mode, and
 * the address the request came from (the session's sign-in address when there is no request).
 */
export function actorOf(viewer: Viewer | null): AuditActor {
  return {
    actorUserId: viewer?.user.id ?? null,
    agentUserId: viewer?.agent?.id ?? null,
    ip: viewer?.clientIp ?? viewer?.session.ip ?? null,
  };
}

/**
 * What the entry of a change to many members says of them: how many, the first by username (as
 * the log's pages name them) and every one by id, which puts the entry in each one's archive.
 */
export function reachedMembers(members: readonly { id: string; username: string }[]) {
  const sorted = [...members].sort((a, b) => a.username.localeCompare(b.username));
  return {
    reached: sorted.length,
    members: sorted.slice(0, NAMED_MEMBERS_MAX).map((m) => m.username),
    memberIds: sorted.map((m) => m.id),
  };
}
