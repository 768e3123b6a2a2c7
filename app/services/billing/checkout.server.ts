import { setTimeout as sleep } from "node:timers/promises";
import { isComplimentary } from "~/domain/complimentary";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { billingCustomers, checkouts, coupons, plans, subscriptions } from "~/db/schema";
import { LIVE_STATUSES, quote } from "~/domain/billing";
import { creditReturnPath } from "~/domain/credits";
import { conflict, DomainError, invalid, notFound, unauthorized, unavailable } from "~/domain/errors";
import { providerErrorCode } from "~/providers/errors";
import type { PricedPlan, ProviderCoupon } from "~/providers/payments/types";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";
import { billingPlan, couponOfSlug } from "./catalogue.server";
import { deliverSandboxEvents } from "./sandbox.server";

/**
 * Checkout: the server quotes the price (with the coupon), makes a checkout whose id is the
 * idempotency key, asks the provider for a subscription or a payment intent, and hands the
 * browser the client secret. The provider's event settles it (events.server.ts).
 */

export const PAYMENTS_DOWN_MESSAGE =
  "Payments are not available right now. Nothing was charged: please try again in a few minutes.";
export const HAS_MEMBERSHIP_MESSAGE = "You already have a membership: change it from your profile.";

type PlanRow = typeof plans.$inferSelect;
type CouponRow = typeof coupons.$inferSelect;
export type CheckoutRow = typeof checkouts.$inferSelect;

/** Who pays: a signed-in member, or a visitor by e-mail (a donation or a credit only). */
export type Payer = { viewer: Viewer } | { email: string };

/** A subscription in force: paid, or owed after a failed renewal. INCOMPLETE (never paid) is not. */
const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);

/** The member's subscription in force (paid, or owed after a failed renewal), if any. */
export async function liveSubscription(
  services: AppServices,
  userId: string,
  /** The member's latest subscription when the caller has it (the viewer's): when live, it is the answer. */
  latest?: typeof subscriptions.$inferSelect | null,
) {
  if (latest === null) return null;
  if (latest && isLive(latest.status)) return latest;
  const [row] = await services.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_STATUSES])))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * A subscription started and never paid (the member left the card page) gives way to the new
 * one: it is cancelled at the provider, whose event ends ours. A provider that cannot be
 * reached leaves it to expire on its own (Stripe expires them after a day).
 */
async function abandonUnpaidSubscriptions(services: AppServices, userId: string): Promise<void> {
  const unpaid = await services.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, "INCOMPLETE")));
  for (const row of unpaid) {
    if (row.providerSubscriptionId && row.provider === services.providers.payments.name) {
      await services.providers.payments
        .cancelSubscription(row.providerSubscriptionId, { atPeriodEnd: false })
        .catch((error: unknown) =>
          services.logger.warn({ err: error, subscription: row.id }, "an unpaid subscription could not be cancelled"),
        );
    }
    await services.db
      .update(subscriptions)
      .set({ status: "INCOMPLETE_EXPIRED", endedAt: new Date() })
      .where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, "INCOMPLETE")));
  }
}

/** The payer's customer at the provider: made once, then reused for every payment. */
export async function customerFor(services: AppServices, payer: Payer): Promise<string> {
  const provider = services.providers.payments;
  const userId = "viewer" in payer ? payer.viewer.member.id : null;
  const email = "viewer" in payer ? payer.viewer.member.email : payer.email;
  const name = "viewer" in payer ? (payer.viewer.member.name ?? payer.viewer.member.username) : null;
  const [existing] = await services.db
    .select({ ref: billingCustomers.providerCustomerId })
    .from(billingCustomers)
    .where(
      and(
        eq(billingCustomers.provider, provider.name),
        userId
          ? eq(billingCustomers.userId, userId)
          : and(isNull(billingCustomers.userId), sql`lower(${billingCustomers.email}) = ${email.toLowerCase()}`),
      ),
    )
    .limit(1);
  if (existing) return existing.ref;
  const key = userId ? `customer-${userId}` : `customer-email-${email.toLowerCase()}`;
  const { customerRef } = await callProvider(() => provider.createCustomer({ email, name, userId }, key));
  await services.db
    .insert(billingCustomers)
    .values({ userId, email, provider: provider.name, providerCustomerId: customerRef })
    .onConflictDoNothing();
  return customerRef;
}

/** A provider's refusal or outage in the member's words; nothing is left half-written by it. */
export async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = providerErrorCode(error);
    if (code === "payment_declined")
      throw new DomainError("invalid", (error as Error).message, { extra: { declined: true } });
    if (code === "provider_unavailable") throw unavailable(PAYMENTS_DOWN_MESSAGE);
    throw error;
  }
}

export type CheckoutInput = {
  /** The form's attempt id: a second submit of the same form is the same checkout. */
  attempt: string;
  planId: string;
  donationCents: number | null;
  couponSlug: string | null;
  /** A notarize page a credit is bought from: the return page sends the member back to it. */
  returnPath?: string | null;
};

export function pricedPlan(plan: PlanRow, amountCents: number): PricedPlan {
  return {
    id: plan.id,
    title: plan.title,
    kind: plan.kind,
    amountCents,
    currency: plan.currency,
    interval: plan.interval,
    providerPriceId: plan.providerPriceId,
  };
}

function providerCoupon(coupon: CouponRow): ProviderCoupon {
  return {
    id: coupon.id,
    name: coupon.name,
    providerRef: coupon.providerRef,
    amountOff: coupon.amountOff,
    percentOff: coupon.percentOff === null ? null : Number(coupon.percentOff),
    currency: coupon.currency,
    duration: coupon.duration,
    durationInMonths: coupon.durationInMonths,
  };
}

/** Starts (or finds again) the checkout of one pay form. */
export async function startCheckout(services: AppServices, payer: Payer, input: CheckoutInput): Promise<CheckoutRow> {
  const { db } = services;
  const provider = services.providers.payments;
  const userId = "viewer" in payer ? payer.viewer.member.id : null;
  const email = "viewer" in payer ? payer.viewer.member.email : payer.email;

  const [again] = await db.select().from(checkouts).where(eq(checkouts.id, input.attempt));
  if (again) {
    if (again.userId !== userId || again.email.toLowerCase() !== email.toLowerCase()) {
      throw conflict("This payment was started by someone else: reload the page.");
    }
    return startedCheckout(services, again);
  }

  const [plan] = await db.select().from(plans).where(eq(plans.id, input.planId));
  if (!plan?.active) throw invalid("Choose a membership", { planId: ["Choose a membership"] });
  if (plan.kind === "subscription") {
    if (!userId) throw unauthorized("Sign up or log in to subscribe: a donation needs no account.");
    // A complimentary membership gives way to a paid one once it is paid (decision 037).
    const live = await liveSubscription(services, userId);
    if (live && !isComplimentary(live)) throw conflict(HAS_MEMBERSHIP_MESSAGE);
  }
  const offer = input.couponSlug ? await couponOfSlug(services, input.couponSlug) : null;
  if (input.couponSlug && !offer) {
    throw invalid("This offer is not available", { coupon: ["This offer is not available"] });
  }
  // A coupon lowers a membership, never a donation.
  const coupon = offer && plan.kind !== "donation" ? offer.coupon : null;
  const priced = quote({
    plan: billingPlan(plan),
    donationCents: input.donationCents,
    coupon,
    now: new Date(),
    donationLimits: { minCents: services.config.donationMinCents, maxCents: services.config.donationMaxCents },
  });
  if (!priced.ok) {
    const field = priced.field === "amount" ? "amount" : priced.field;
    throw invalid(priced.message, { [field]: [priced.message] });
  }
  const { quote: price } = priced;
  const customerRef = await customerFor(services, payer);
  const [checkout] = await db
    .insert(checkouts)
    .values({
      id: input.attempt,
      userId,
      email,
      kind: plan.kind,
      planId: plan.id,
      couponId: price.couponId,
      couponDiscountId: price.couponId ? (offer?.discountId ?? null) : null,
      listAmountCents: price.listAmountCents,
      amountCents: price.amountCents,
      currency: price.currency,
      provider: provider.name,
      providerCustomerId: customerRef,
      returnPath: plan.kind === "credit" ? creditReturnPath(input.returnPath) : null,
    })
    .onConflictDoNothing()
    .returning();
  // Two submits of one form at the same moment: the second finds the first's checkout.
  if (!checkout) return startCheckout(services, payer, input);
  // Only the submit that made this checkout lets the member's earlier unpaid ones go: a second
  // submit of the same form must not cancel the subscription the first is starting.
  if (plan.kind === "subscription" && userId) await abandonUnpaidSubscriptions(services, userId);

  const metadata: Record<string, string> = {
    checkout_id: checkout.id,
    plan_id: plan.id,
    ...(userId ? { user_id: userId } : {}),
  };
  try {
    const started = await callProvider(async () => {
      if (plan.kind === "subscription") {
        const [couponRow] = price.couponId ? await db.select().from(coupons).where(eq(coupons.id, price.couponId)) : [];
        const subscription = await provider.startSubscription({
          customerRef,
          plan: pricedPlan(plan, price.listAmountCents),
          coupon: couponRow ? providerCoupon(couponRow) : null,
          idempotencyKey: checkout.id,
          metadata,
        });
        return { ref: subscription.subscriptionRef, clientSecret: subscription.clientSecret };
      }
      const intent = await provider.startPayment({
        customerRef,
        email,
        amountCents: price.amountCents,
        currency: price.currency,
        description: plan.kind === "donation" ? "Donation" : plan.title,
        idempotencyKey: checkout.id,
        metadata,
      });
      return { ref: intent.intentRef, clientSecret: intent.clientSecret };
    });
    const [updated] = await db
      .update(checkouts)
      .set({
        providerRef: started.ref,
        clientSecret: started.clientSecret,
        status: started.clientSecret ? "open" : "processing",
      })
      .where(eq(checkouts.id, checkout.id))
      .returning();
    await audit(
      db,
      "viewer" in payer ? actorOf(payer.viewer) : { actorUserId: null, agentUserId: null },
      "checkout.start",
      "checkout",
      checkout.id,
      {
        planId: plan.id,
        amountCents: price.amountCents,
        couponId: price.couponId,
      },
    );
    // The sandbox's events of the start (and, with nothing due, of the payment) apply now.
    await deliverSandboxEvents(services);
    return updated!;
  } catch (error) {
    await checkoutFailed(services, checkout.id, error);
    throw error;
  }
}

/** A checkout whose start the provider refused or did not answer: failed, with the words the member reads. */
export async function checkoutFailed(services: AppServices, checkoutId: string, error: unknown): Promise<void> {
  const message = error instanceof DomainError ? error.message : PAYMENTS_DOWN_MESSAGE;
  await services.db
    .update(checkouts)
    .set({ status: "failed", failureMessage: message })
    .where(eq(checkouts.id, checkoutId));
}

/** How long a second submit of a pay form waits for the first to reach the provider. */
const STARTING_WAIT_MS = 15_000;

/**
 * A checkout as the submit that is starting it leaves it: a second submit of the same form
 * (a double click) waits for the first's provider call rather than paying a checkout that has
 * no payment at the provider yet.
 */
export async function startedCheckout(services: AppServices, row: CheckoutRow): Promise<CheckoutRow> {
  const until = Date.now() + STARTING_WAIT_MS;
  let current = row;
  while (current.status === "open" && current.providerRef === null && Date.now() < until) {
    await sleep(50);
    const [again] = await services.db.select().from(checkouts).where(eq(checkouts.id, row.id));
    if (!again) return current;
    current = again;
  }
  return current;
}

/** A checkout the asker may see: the member's own, or a visitor's kept in their cookie. */
export async function checkoutFor(
  services: AppServices,
  viewer: Viewer | null,
  checkoutId: string,
  visitorCheckouts: readonly string[],
): Promise<CheckoutRow> {
  if (!/^[0-9a-f-]{36}$/i.test(checkoutId)) throw notFound();
  const [row] = await services.db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
  if (!row) throw notFound();
  const mine = viewer ? row.userId === viewer.member.id : row.userId === null && visitorCheckouts.includes(row.id);
  if (!mine) throw notFound();
  return row;
}
