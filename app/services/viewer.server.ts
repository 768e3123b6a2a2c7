import { and, desc, eq, getTableColumns, gt, inArray, isNull, lt, sql, type SQLWrapper } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { plans, sessions, subscriptions, users } from "~/db/schema";
import { grantedFeatures, LIVE_STATUSES } from "~/domain/billing";

/**
 * Who a session is: its row, the person signed in, the member an admin acts for, and the
 * member's latest subscription with what its plan grants, read in one round trip.
 * session.server.ts reads them for requests (through the server's cache of viewers).
 */

/** The idle timeout when the configuration names none (SESSION_IDLE_DAYS's default). */
export const SESSION_IDLE_DAYS = 7;
/** A session's last_seen_at moves at most this often, so a busy session is not a write per request. */
const SEEN_EVERY_MS = 60_000;

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
/** The member's latest subscription, with what its plan grants while it is in force. */
type SubscriptionRow = typeof subscriptions.$inferSelect & {
  features: string[];
  planTitle: string;
  planInterval: "month" | "year" | null;
};

/** Days a PAST_DUE subscription keeps its plan's features when the configuration names none. */
export const PAST_DUE_GRACE_DAYS = 7;

export type Viewer = {
  session: SessionRow;
  /** The person signed in. */
  user: UserRow;
  /** The member an admin is acting for (agent mode), or null. */
  agent: UserRow | null;
  /** Whose account the pages show: the represented member in agent mode, else the user. */
  member: UserRow;
  subscription: SubscriptionRow | null;
  /** Whether the person signed in has a second factor (a passkey or an authenticator app). */
  hasFactor: boolean;
  /**
   * An admin whose second factor the policy requires and who has none ("setup") or whose
   * session has not passed it ("verify"): until then they are no admin (session.server.ts).
   */
  adminLocked?: "setup" | "verify";
  /** The address this request came from, as the proxy settings read it (absent outside a request). */
  clientIp?: string;
};

/** The user's membership (the one in force, else the newest), with its plan's features and title. */
function latestSubscriptionOf(db: Database, userId: SQLWrapper) {
  return (
    db
      .select({
        ...getTableColumns(subscriptions),
        features: plans.features,
        planTitle: plans.title,
        planInterval: plans.interval,
      })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(eq(subscriptions.userId, userId))
      // The one in force first: a checkout started while a complimentary one runs does not hide it.
      .orderBy(sql`${inArray(subscriptions.status, [...LIVE_STATUSES])} desc`, desc(subscriptions.createdAt))
      .limit(1)
  );
}

export async function latestSubscription(db: Database, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await latestSubscriptionOf(db, sql`${userId}`);
  return row ?? null;
}

/**
 * The member as the pages see them: an admin's grant of the NoL creator flag stands, and a
 * plan that grants it does so while its subscription is in force.
 */
function withPlanFeatures(
  member: UserRow,
  subscription: SubscriptionRow | null,
  now: Date,
  graceDays: number,
): UserRow {
  const granted = grantedFeatures(subscription, now, graceDays);
  return granted.includes("nolCreator") && !member.nolCreator ? { ...member, nolCreator: true } : member;
}

/** A live session (not revoked, expired, idle too long, or of a disabled member) with its people; marks it seen. */
export async function loadViewer(
  db: Database,
  sessionId: string,
  {
    idleDays = SESSION_IDLE_DAYS,
    graceDays = PAST_DUE_GRACE_DAYS,
    now = new Date(),
  }: { idleDays?: number; graceDays?: number; now?: Date } = {},
): Promise<Viewer | null> {
  // The session, its user and the user's latest subscription in one round trip: every
  // signed-in request asks for them.
  const latest = latestSubscriptionOf(db, sessions.userId).as("latest");
  const [row] = await db
    .select({
      session: sessions,
      user: users,
      subscription: latest._.selectedFields,
      hasFactor: sql<boolean>`exists (select 1 from user_factors f where f.user_id = ${sessions.userId})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoinLateral(latest, sql`true`)
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - idleDays * 86_400_000)),
        isNull(users.disabledAt),
        // A deleted account signs in no more, whatever the way (decision 051): its login offers the undo.
        isNull(users.deletionRequestedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  const seenBefore = new Date(now.getTime() - SEEN_EVERY_MS);
  if (row.session.lastSeenAt < seenBefore) {
    // Only the first of concurrent requests writes.
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, seenBefore)));
    row.session.lastSeenAt = now;
  }
  let agent: UserRow | null = null;
  if (row.session.agentUserId && row.user.admin) {
    const [represented] = await db.select().from(users).where(eq(users.id, row.session.agentUserId)).limit(1);
    agent = represented ?? null;
  }
  const subscription = agent ? await latestSubscription(db, agent.id) : row.subscription;
  const member = withPlanFeatures(agent ?? row.user, subscription, now, graceDays);
  const user = agent ? row.user : member;
  return { session: row.session, user, agent, member, subscription, hasFactor: row.hasFactor };
}

/**
 * Marks the session checked now (login and subscription) and reads it again: concurrent
 * rechecks of one session all see one update. Null once the session has ended.
 */
export async function recheckSession(
  db: Database,
  sessionId: string,
  graceDays = PAST_DUE_GRACE_DAYS,
): Promise<Viewer | null> {
  const now = new Date();
  await db
    .update(sessions)
    .set({ loginCheckedAt: now, subCheckedAt: now, lastSeenAt: now })
    .where(eq(sessions.id, sessionId));
  return loadViewer(db, sessionId, { now, graceDays });
}
