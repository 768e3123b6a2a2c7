import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";

export type AuditActor = { actorUserId: string | null; agentUserId: string | null };

/** Records a write: who did it and, in agent mode, for whom. */
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
  });
}
