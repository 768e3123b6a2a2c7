import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { recoveryCodes, rememberedDevices, sessions, userFactors, users } from "~/db/schema";
import { factorEventText, type FactorEvent } from "~/domain/second-factor-words";
import { audit, type AuditActor } from "../audit.server";

/**
 * A member's second factors as the security page lists them, and what every change or use of
 * one does besides: the audit log, the member's e-mail, and the session that passed it
 * (decision 045).
 */

export type FactorOverview = {
  passkeys: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }[];
  totp: { id: string; createdAt: Date; lastUsedAt: Date | null } | null;
  /** Recovery codes not used yet. */
  recoveryCodesLeft: number;
  /** Whether the member has a passkey or an authenticator app. */
  hasFactor: boolean;
};

/** A member's second factors (passkeys, an authenticator app), oldest first; never a key or a secret. */
export function factorsOf(db: Database, userId: string) {
  return db
    .select({
      id: userFactors.id,
      kind: userFactors.kind,
      name: userFactors.name,
      createdAt: userFactors.createdAt,
      lastUsedAt: userFactors.lastUsedAt,
    })
    .from(userFactors)
    .where(eq(userFactors.userId, userId))
    .orderBy(asc(userFactors.createdAt));
}

export async function factorOverview(db: Database, userId: string): Promise<FactorOverview> {
  const rows = await factorsOf(db, userId);
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const totp = rows.find((row) => row.kind === "totp");
  return {
    passkeys: rows
      .filter((row) => row.kind === "passkey")
      .map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })),
    totp: totp ? { id: totp.id, createdAt: totp.createdAt, lastUsedAt: totp.lastUsedAt } : null,
    recoveryCodesLeft: left?.n ?? 0,
    hasFactor: rows.length > 0,
  };
}

/** Whether the member has any second factor (a passkey or an authenticator app). */
export async function hasFactor(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userFactors.id })
    .from(userFactors)
    .where(eq(userFactors.userId, userId))
    .limit(1);
  return row !== undefined;
}

/** How a factor was passed: at sign-in, or again before a sensitive action. */
export type FactorUse = "sign-in" | "step-up";
export type PassedKind = "passkey" | "totp" | "recovery";

/**
 * A factor passed: its last use, the session's time of passing (what step-up reads), the audit
 * log, and an e-mail to the member for a sign-in or a recovery code (a step-up within a session
 * already told of is only audited).
 */
export async function factorPassed(
  services: AppServices,
  input: {
    userId: string;
    sessionId: string | null;
    kind: PassedKind;
    factorId: string | null;
    use: FactorUse;
    actor: AuditActor;
  },
): Promise<void> {
  const { db } = services;
  const now = new Date();
  if (input.factorId) {
    await db.update(userFactors).set({ lastUsedAt: now }).where(eq(userFactors.id, input.factorId));
  }
  if (input.sessionId) {
    await db.update(sessions).set({ factorPassedAt: now }).where(eq(sessions.id, input.sessionId));
  }
  await audit(db, input.actor, "factor.used", "user", input.userId, { kind: input.kind, use: input.use });
  if (input.use === "sign-in" || input.kind === "recovery") {
    await tellMember(services, input.userId, { event: "used", kind: input.kind, use: input.use });
  }
}

/** E-mails the member what happened to their second factors. */
export async function tellMember(services: AppServices, userId: string, event: FactorEvent): Promise<void> {
  const [member] = await services.db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!member) return;
  const { subject, text } = factorEventText(event, {
    username: member.username,
    supportEmail: services.config.supportEmail,
    securityUrl: `${services.config.baseUrl}/profile/security`,
  });
  await services.providers.mail.send({ to: member.email, template: `factor-${event.event}`, subject, text });
}

/** Audits and e-mails a factor added or removed by the member. */
export async function factorChanged(
  services: AppServices,
  actor: AuditActor,
  userId: string,
  event: Extract<FactorEvent, { event: "added" | "removed" }>,
): Promise<void> {
  await audit(services.db, actor, `factor.${event.event}`, "user", userId, { kind: event.kind, name: event.name });
  await tellMember(services, userId, event);
}

/**
 * Removes every factor of a member who lost them (an admin's reset, or the operator's task):
 * passkeys, authenticator app, recovery codes and remembered devices go, and every session
 * ends. Audited and e-mailed.
 */
export async function resetFactors(services: AppServices, actor: AuditActor, userId: string): Promise<void> {
  const { db } = services;
  await db.transaction(async (tx) => {
    await tx.delete(userFactors).where(eq(userFactors.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx
      .update(rememberedDevices)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
    await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  });
  await audit(db, actor, "factor.reset", "user", userId);
  await tellMember(services, userId, { event: "reset" });
}
