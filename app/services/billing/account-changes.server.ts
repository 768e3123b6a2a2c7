import { isComplimentary } from "~/domain/complimentary";
import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { checkouts, plans } from "~/db/schema";
import { membershipActions, type MembershipActions } from "~/domain/billing-account";
import { conflict, invalid } from "~/domain/errors";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";
import { callProvider, customerFor, liveSubscription, pricedPlan } from "./checkout.server";
import { checkoutPagePath } from "./pages.server";
import { deliverSandboxEvents } from "./sandbox.server";

/**
 * What a member changes about their own membership: the plan, cancelling at the period's end,
 * resuming, the card. Each asks the provider first; the provider's events (handed over at once
 * by the sandbox, by webhook from Stripe) change our rows, so a refusal or an outage changes
 * nothing here.
 */

export const NO_MEMBERSHIP_MESSAGE = "You have no membership to change: choose one first.";

/**
 * The member's membership that an action may change at the provider; refused with `none`
 * when there is none, else with the reason the action does not apply to it now.
 */
async function manageable(
  services: AppServices,
  viewer: Viewer,
  allowed: keyof MembershipActions,
  none: string,
  notNow: string = none,
) {
  const subscription = await liveSubscription(services, viewer.member.id);
  if (subscription && isComplimentary(subscription))
    throw invalid("Your membership is complimentary: there is nothing to pay or change. Choose a plan to pay for one.");
  if (!subscription?.providerSubscriptionId) throw invalid(none);
  if (subscription.provider !== services.providers.payments.name) {
    throw invalid("This membership was made with another payments provider: contact support to change it.");
  }
  if (!membershipActions(subscription.status, subscription.cancelAtPeriodEnd)[allowed]) throw invalid(notNow);
  return { ...subscription, providerSubscriptionId: subscription.providerSubscriptionId };
}

/** Moves the membership to another plan; the provider prorates, and its event changes our row. */
export async function changeMembershipPlan(
  services: AppServices,
  viewer: Viewer,
  input: { attempt: string; planId: string },
): Promise<string> {
  const subscription = await manageable(services, viewer, "changePlan", NO_MEMBERSHIP_MESSAGE);
  const [plan] = await services.db.select().from(plans).where(eq(plans.id, input.planId));
  const refuse = (message: string) => invalid(message, { planId: [message] });
  if (!plan?.active) throw refuse("Choose a membership");
  if (plan.kind !== "subscription" || plan.amountCents === null) throw refuse(`The ${plan.title} is not a membership`);
  if (plan.id === subscription.planId) throw refuse(`You have the ${plan.title} already`);
  if (plan.currency !== subscription.currency) throw refuse(`The ${plan.title} is in another currency`);
  await callProvider(() =>
    services.providers.payments.changePlan(
      subscription.providerSubscriptionId,
      pricedPlan(plan, plan.amountCents!),
      // One form is one change; the same form sent for another plan is another.
      `change-${input.attempt}-${plan.id}`,
    ),
  );
  await deliverSandboxEvents(services);
  await audit(services.db, actorOf(viewer), "subscription.change-plan", "subscription", subscription.id, {
    from: subscription.planId,
    to: plan.id,
  });
  return plan.title;
}

/** Cancels at the end of the paid period: the member keeps what they paid for until then. */
export async function cancelMembership(services: AppServices, viewer: Viewer): Promise<{ endsOn: Date | null }> {
  const subscription = await manageable(
    services,
    viewer,
    "cancel",
    "You have no membership to cancel.",
    "Your membership already ends at the end of this period.",
  );
  const data = await callProvider(() =>
    services.providers.payments.cancelSubscription(subscription.providerSubscriptionId, { atPeriodEnd: true }),
  );
  await deliverSandboxEvents(services);
  await audit(services.db, actorOf(viewer), "subscription.cancel", "subscription", subscription.id);
  return { endsOn: data.currentPeriodEnd ?? subscription.currentPeriodEnd };
}

/** Undoes a cancellation at the period's end: the membership renews again. */
export async function resumeMembership(services: AppServices, viewer: Viewer): Promise<void> {
  const subscription = await manageable(
    services,
    viewer,
    "resume",
    "You have no membership to resume.",
    "Your membership is not set to end: there is nothing to resume.",
  );
  await callProvider(() => services.providers.payments.resumeSubscription(subscription.providerSubscriptionId));
  await deliverSandboxEvents(services);
  await audit(services.db, actorOf(viewer), "subscription.resume", "subscription", subscription.id);
}

/**
 * Starts replacing the card on file: a checkout of kind "card" (nothing charged) whose id is
 * the idempotency key of the provider's setup intent. Answers the card page to go to; the
 * provider's card.updated event settles it and records the new card.
 */
export async function startCardUpdate(services: AppServices, viewer: Viewer, attempt: string): Promise<string> {
  const { db } = services;
  const provider = services.providers.payments;
  const userId = viewer.member.id;
  await manageable(services, viewer, "updateCard", "You have no membership to pay with a card: choose one first.");
  const customerRef = await customerFor(services, { viewer });
  const [made] = await db
    .insert(checkouts)
    .values({
      id: attempt,
      userId,
      email: viewer.member.email,
      kind: "card",
      listAmountCents: 0,
      amountCents: 0,
      provider: provider.name,
      providerCustomerId: customerRef,
    })
    .onConflictDoNothing()
    .returning();
  if (!made) {
    // The same form sent again: the card page of the checkout it started.
    const [again] = await db.select().from(checkouts).where(eq(checkouts.id, attempt));
    if (again?.userId !== userId || again.kind !== "card") {
      throw conflict("This card update was started elsewhere: reload the page.");
    }
    if (again.clientSecret) return checkoutPagePath(again);
    throw conflict("This card update did not start: reload the page and try again.");
  }
  try {
    const intent = await callProvider(() =>
      provider.startCardUpdate(customerRef, made.id, { checkout_id: made.id, user_id: userId }),
    );
    const [started] = await db
      .update(checkouts)
      .set({ providerRef: intent.intentRef, clientSecret: intent.clientSecret })
      .where(eq(checkouts.id, made.id))
      .returning();
    await audit(db, actorOf(viewer), "checkout.start", "checkout", made.id, { kind: "card" });
    return checkoutPagePath(started!);
  } catch (error) {
    await db
      .update(checkouts)
      .set({ status: "failed", failureMessage: error instanceof Error ? error.message : null })
      .where(eq(checkouts.id, made.id));
    throw error;
  }
}
