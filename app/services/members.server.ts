import { and, eq, isNull, ne } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { sessions, users } from "~/db/schema";
import { rejoinStanding } from "~/domain/account";
import { shownStatus } from "~/domain/complimentary";
import { invalid, invariant } from "~/domain/errors";
import { audit, actorOf } from "./audit.server";
import { membershipOf, membershipState, paymentLines } from "./billing/account.server";
import { renewSandboxSubscriptions } from "./billing/sandbox.server";
import { latestSubscription, revokeUserSessions, type Viewer } from "./session.server";

function roles(u: { admin: boolean; nolCreator: boolean; nolTester: boolean }): string[] {
  return [u.admin && "Admin", u.nolCreator && "NoL creator", u.nolTester && "NoL tester"].filter(Boolean) as string[];
}

/** One member for the admins' page; a missing one is not-found. */
export async function memberDetail(db: Database, id: string) {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  invariant(u);
  const sub = await latestSubscription(db, u.id);
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    emailVerified: u.emailVerifiedAt !== null,
    name: u.name,
    country: u.countryCode,
    labels: u.labels,
    hasPassword: u.passwordHash !== null,
    roles: roles(u),
    needsSetup: u.needsSetup,
    subStatus: shownStatus(sub),
    expiration: sub?.currentPeriodEnd?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
  };
}

/** An admin ends every session of a member (DESIGN.md §4 "admin revocation"), audited. */
export async function endMemberSessions(db: Database, viewer: Viewer, memberId: string): Promise<void> {
  await revokeUserSessions(db, memberId);
  await audit(db, actorOf(viewer), "sessions.revoke", "user", memberId);
}

/** The person signed in ends every other session of theirs and keeps this one, audited. */
export async function endOtherSessions(db: Database, viewer: Viewer): Promise<void> {
  const { session } = viewer;
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, session.userId), isNull(sessions.revokedAt), ne(sessions.id, session.id)));
  await audit(db, actorOf(viewer), "sessions.revoke-others", "user", session.userId);
}

/** What /profile shows of the signed-in member; a membership not in good standing offers Re-join. */
export function profileOf(viewer: Viewer) {
  const m = viewer.member;
  const subStatus = shownStatus(viewer.subscription);
  return {
    username: m.username,
    email: m.email,
    verified: m.emailVerifiedAt !== null,
    name: m.name,
    country: m.countryCode,
    subStatus,
    expiration: viewer.subscription?.currentPeriodEnd?.toISOString() ?? null,
    membership: viewer.subscription ? membershipState(viewer.subscription) : null,
    // Only a lapsed member has something to re-join; one who never subscribed chooses a plan.
    showRejoin: rejoinStanding({ needsSetup: m.needsSetup, subscriptionStatus: subStatus }) === "lapsed",
  };
}

// ── Billing, for the admins' member page ──

const ADMIN_PAYMENTS = 20;

/** A member's membership and latest payments for admins; "Renew now" where the sandbox takes payments. */
export async function memberBilling(services: AppServices, userId: string) {
  const subscription = await latestSubscription(services.db, userId);
  return {
    membership: await membershipOf(services, userId),
    payments: await paymentLines(services.db, userId, ADMIN_PAYMENTS),
    canRenew: renewable(services, subscription),
  };
}

function renewable(
  services: AppServices,
  subscription: { status: string; provider: string; providerSubscriptionId: string | null } | null,
): subscription is { status: string; provider: string; providerSubscriptionId: string } {
  return (
    services.providers.paymentsSandbox !== null &&
    subscription?.provider === "sandbox" &&
    subscription.providerSubscriptionId !== null &&
    (subscription.status === "ACTIVE" || subscription.status === "PAST_DUE")
  );
}

/**
 * An admin runs the sandbox's renewal of the member's membership now, as if its period had
 * ended: a payment (or a failed one), or its end when it was canceled at the period's end. Audited.
 */
export async function renewMemberNow(services: AppServices, viewer: Viewer, userId: string): Promise<string> {
  const subscription = await latestSubscription(services.db, userId);
  if (!renewable(services, subscription)) {
    throw invalid("This member has no membership the sandbox can renew.");
  }
  const renewed = await renewSandboxSubscriptions(services, { subscriptionRef: subscription.providerSubscriptionId });
  // The demo seed's memberships were never made at the sandbox.
  if (renewed === 0) throw invalid("The sandbox has no record of this membership, so it cannot renew it.");
  const after = await latestSubscription(services.db, userId);
  await audit(services.db, actorOf(viewer), "subscription.renew", "subscription", subscription.id, {
    from: subscription.status,
    to: after?.status ?? null,
  });
  return after?.status ?? subscription.status;
}
