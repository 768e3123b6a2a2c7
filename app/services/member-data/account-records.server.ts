import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { auditLog, recoveryCodes, rememberedDevices, sessions, users } from "~/db/schema";
import { deviceOf } from "~/domain/profile";
import { factorsOf } from "../factors/records.server";
import { sessionCode } from "../profile.server";

/**
 * The records of a member's account for their data archive: the account itself, its sessions,
 * its second factors and its audit trail, each without secrets.
 */

/** The entities a member's own actions are logged under (beside their account's, "user"). */
const OWN_ENTITIES = ["session", "checkout", "form_entry", "pending_submission", "subscription", "support_request"];

/**
 * The audit trail of the member's account: what they did, what admins did to it or for it
 * (agent mode), and each change to many members that reached them (its entry lists them all
 * by id). An admin is named by role only, and their address is not the member's to see; of a
 * change to many, how many it reached, not who the others were nor the admin's search.
 */
export async function auditTrail(db: Database, memberId: string) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entity, "user"), eq(auditLog.entityId, memberId)),
        and(
          eq(auditLog.entity, "user"),
          isNull(auditLog.entityId),
          sql`${auditLog.data}->'memberIds' @> ${JSON.stringify([memberId])}::jsonb`,
        ),
        eq(auditLog.agentUserId, memberId),
        and(eq(auditLog.actorUserId, memberId), isNull(auditLog.agentUserId), inArray(auditLog.entity, OWN_ENTITIES)),
      ),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return rows.map((row) => {
    const byMember = row.actorUserId === memberId && row.agentUserId === null;
    const many = row.entity === "user" && row.entityId === null;
    return {
      at: row.createdAt,
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      by: byMember ? "you" : row.agentUserId === memberId ? "an admin acting for you" : "an admin",
      data: many ? { reached: (row.data as { reached?: number } | null)?.reached ?? null } : row.data,
      ip: byMember ? row.ip : null,
    };
  });
}

export async function profile(db: Database, memberId: string) {
  const {
    passwordHash: _hash,
    subscriptionStatus: _status,
    subscriptionPlanId: _plan,
    ...columns
  } = getTableColumns(users);
  const [row] = await db.select(columns).from(users).where(eq(users.id, memberId));
  return row ?? null;
}

export async function sessionRows(db: Database, memberId: string) {
  const rows = await db.select().from(sessions).where(eq(sessions.userId, memberId)).orderBy(asc(sessions.createdAt));
  return rows.map((s) => ({
    code: sessionCode(s.id),
    carrier: s.carrier,
    device: deviceOf(s.userAgent),
    userAgent: s.userAgent,
    ip: s.ip,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
    revokedAt: s.revokedAt,
    factorPassedAt: s.factorPassedAt,
  }));
}

/** The second factors as a list (kind, name, dates); never a key, a secret or a code. */
export async function secondFactors(db: Database, memberId: string) {
  const factors = (await factorsOf(db, memberId)).map(({ kind, name, createdAt, lastUsedAt }) => ({
    kind,
    name,
    createdAt,
    lastUsedAt,
  }));
  const codes = await db
    .select({ usedAt: recoveryCodes.usedAt, createdAt: recoveryCodes.createdAt })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, memberId));
  const devices = await db
    .select({
      userAgent: rememberedDevices.userAgent,
      until: rememberedDevices.until,
      revokedAt: rememberedDevices.revokedAt,
      createdAt: rememberedDevices.createdAt,
    })
    .from(rememberedDevices)
    .where(eq(rememberedDevices.userId, memberId));
  return {
    factors,
    recoveryCodes: { total: codes.length, used: codes.filter((c) => c.usedAt).length },
    rememberedDevices: devices,
  };
}
