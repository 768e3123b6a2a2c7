import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { plans, subscriptions, users } from "~/db/schema";
import { LIVE_STATUSES } from "~/domain/billing";
import { COMPLIMENTARY, complimentaryEnd } from "~/domain/complimentary";
import type { GrantComplimentaryInput } from "~/domain/complimentary-inputs";
import { conflict, invalid, notFound } from "~/domain/errors";
import { dayOf } from "~/domain/nol/timeline";
import { formatDate } from "~/lib/format";
import { actorOf, audit, type AuditActor } from "../audit.server";
import { sweepJob } from "../queue.server";
import type { Viewer } from "../session.server";
import type { Tx } from "./payment-records.server";

/**
 * Complimentary memberships (decision 037): an admin grants a member a plan, with its features,
 * billed by nobody: a `subscriptions` row of the provider "complimentary". It never reaches the
 * payments provider; it ends on its end day (this job marks it), when an admin ends it, or when
 * the member's own paid membership starts.
 */

/** Who grants a complimentary membership: an admin, for the record and the audit log. */
export type Grantor = { userId: string | null; actor: AuditActor };

export const grantorOf = (admin: Viewer): Grantor => ({ userId: admin.user.id, actor: actorOf(admin) });

/** Grants the member a complimentary membership of the plan, replacing a complimentary one they have. */
export async function grantComplimentary(
  services: AppServices,
  grantor: Grantor,
  memberId: string,
  input: Omit<GrantComplimentaryInput, "intent">,
  now = new Date(),
): Promise<{ plan: string; endsOn: Date | null }> {
  const { db } = services;
  const [plan] = await db.select().from(plans).where(eq(plans.id, input.planId));
  if (!plan?.active || plan.kind !== "subscription")
    throw invalid("Choose a membership plan", { planId: ["Choose a membership plan"] });
  const ends = complimentaryEnd(input.endsOn, dayOf(now));
  if ("error" in ends) throw invalid(ends.error, { endsOn: [ends.error] });
  await db.transaction(async (tx) => {
    // The member's row is the lock: two grants, or a grant and a payment, take turns.
    const [member] = await tx.select({ id: users.id }).from(users).where(eq(users.id, memberId)).for("update");
    if (!member) throw notFound("No such member");
    const live = await tx
      .select({ provider: subscriptions.provider })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, memberId), inArray(subscriptions.status, [...LIVE_STATUSES])));
    if (live.some((row) => row.provider !== COMPLIMENTARY))
      throw conflict("This member pays for a membership already: a complimentary one would be a second.");
    await endComplimentaryOf(tx, memberId, now);
    await tx.insert(subscriptions).values({
      userId: memberId,
      planId: plan.id,
      status: "ACTIVE",
      provider: COMPLIMENTARY,
      listAmountCents: 0,
      amountCents: 0,
      currency: plan.currency,
      currentPeriodStart: now,
      currentPeriodEnd: ends.end,
      grantedBy: grantor.userId,
      grantNote: input.note,
    });
    // Setup's membership step asks for a plan: this one is it.
    await tx
      .update(users)
      .set({ needsSetup: false, setupStep: null })
      .where(and(eq(users.id, memberId), eq(users.needsSetup, true), eq(users.setupStep, "membership")));
    await audit(tx, grantor.actor, "membership.complimentary.grant", "user", memberId, {
      plan: plan.id,
      endsOn: ends.end ? dayOf(ends.end) : null,
      note: input.note,
    });
  });
  return { plan: plan.title, endsOn: ends.end };
}

/** An admin ends the member's complimentary membership now. */
export async function endComplimentary(services: AppServices, admin: Viewer, memberId: string): Promise<void> {
  await services.db.transaction(async (tx) => {
    const ended = await endComplimentaryOf(tx, memberId);
    if (ended === 0) throw invalid("This member has no complimentary membership");
    await audit(tx, actorOf(admin), "membership.complimentary.end", "user", memberId);
  });
}

/** The member's complimentary membership in force: at most one, since a grant replaces it. */
const complimentaryInForce = (memberId: string) =>
  and(
    eq(subscriptions.userId, memberId),
    eq(subscriptions.provider, COMPLIMENTARY),
    eq(subscriptions.status, "ACTIVE"),
  );

/** Ends the member's complimentary membership in force, if any: the number ended (0 or 1). */
export async function endComplimentaryOf(tx: Tx, memberId: string, now = new Date()): Promise<number> {
  const ended = await tx
    .update(subscriptions)
    .set({ status: "CANCELED", canceledAt: now, endedAt: now, updatedAt: now })
    .where(complimentaryInForce(memberId))
    .returning({ id: subscriptions.id });
  return ended.length;
}

/** Marks every complimentary membership whose end day has come as ended: the number ended. */
export async function endDueComplimentary(services: AppServices, now = new Date()): Promise<number> {
  const ended = await services.db
    .update(subscriptions)
    .set({ status: "CANCELED", endedAt: sql`${subscriptions.currentPeriodEnd}`, updatedAt: now })
    .where(
      and(
        eq(subscriptions.provider, COMPLIMENTARY),
        eq(subscriptions.status, "ACTIVE"),
        lte(subscriptions.currentPeriodEnd, now),
      ),
    )
    .returning({ id: subscriptions.id });
  return ended.length;
}

export const complimentaryEndsJob = sweepJob({
  name: "complimentary-ends",
  schedule: "*/15 * * * *",
  async run(services) {
    const ended = await endDueComplimentary(services);
    if (ended > 0) services.logger.info({ ended }, "complimentary memberships ended on their day");
  },
});

/** What the admins' member page offers: the plans to grant, and the member's complimentary membership in force. */
export async function complimentaryOf(services: AppServices, memberId: string) {
  const { db } = services;
  const [offer, [current]] = await Promise.all([
    db
      .select({ id: plans.id, title: plans.title })
      .from(plans)
      .where(and(eq(plans.active, true), eq(plans.kind, "subscription")))
      .orderBy(plans.sort),
    db
      .select({
        plan: plans.title,
        endsOn: subscriptions.currentPeriodEnd,
        note: subscriptions.grantNote,
        grantedBy: users.username,
        since: subscriptions.currentPeriodStart,
      })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .leftJoin(users, eq(users.id, subscriptions.grantedBy))
      .where(complimentaryInForce(memberId))
      .limit(1),
  ]);
  return {
    plans: offer,
    current: current
      ? {
          plan: current.plan,
          endsOn: current.endsOn ? formatDate(current.endsOn) : null,
          since: current.since ? formatDate(current.since) : null,
          grantedBy: current.grantedBy,
          note: current.note,
        }
      : null,
  };
}
