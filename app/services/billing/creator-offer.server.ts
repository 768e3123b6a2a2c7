import { isComplimentary } from "~/domain/complimentary";
import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { preparedQuery } from "~/db/prepared.server";
import { plans } from "~/db/schema";
import { membershipActions } from "~/domain/billing-account";
import { pricePer } from "~/domain/coupons";
import { creatorWay, type CreatorWay } from "~/domain/creator-offer";
import type { Viewer } from "../session.server";
import { liveSubscription } from "./checkout.server";

/** What a member who cannot use the NoL creator is told: the plans that include it and the way to it. */
export type CreatorOffer = {
  way: CreatorWay;
  plans: { id: string; title: string; price: string | null }[];
  /** The plan change form's attempt id. */
  attempt: string;
  /** The admin's own member page, where the NoL creator flag is set. */
  memberPage: string;
};

/** The plans whose subscription grants the NoL creator, in the catalogue's order. */
export function creatorPlans(services: AppServices) {
  // Asked on the home page of every member who is not a creator: kept, and prepared once.
  return services.reference.read("creator-plans", () =>
    preparedQuery(services.db, "creator_plans", (db, name) =>
      db
        .select()
        .from(plans)
        .where(
          and(
            eq(plans.active, true),
            eq(plans.kind, "subscription"),
            sql`${plans.features} @> '["nolCreator"]'::jsonb`,
          ),
        )
        .orderBy(asc(plans.sort))
        .prepare(name),
    ).execute(),
  );
}

/** The viewer's way to the NoL creator, or null when they have it (creator or tester). */
export async function creatorOffer(services: AppServices, viewer: Viewer): Promise<CreatorOffer | null> {
  const { member } = viewer;
  if (member.nolCreator || member.nolTester) return null;
  const [including, live] = await Promise.all([
    creatorPlans(services),
    liveSubscription(services, member.id, viewer.subscription),
  ]);
  const way = creatorWay({
    creator: false,
    admin: member.admin,
    creatorPlanIds: including.map((plan) => plan.id),
    // A complimentary membership is not changed at a provider: its way is a plan to pay for.
    membership:
      live && !isComplimentary(live)
        ? { planId: live.planId, changeable: membershipActions(live.status, live.cancelAtPeriodEnd).changePlan }
        : null,
  });
  if (!way) return null;
  return {
    way,
    plans: including.map((plan) => ({
      id: plan.id,
      title: plan.title,
      price: plan.amountCents === null ? null : pricePer(plan.amountCents, plan.currency, plan.interval),
    })),
    attempt: randomUUID(),
    memberPage: `/members/${member.id}`,
  };
}
