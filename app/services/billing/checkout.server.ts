import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import {
  billingCustomers,
  checkouts,
  couponDiscounts,
  couponPlans,
  coupons,
  payments,
  plans,
  subscriptions,
} from "~/db/schema";
import { quote, type BillingCoupon, type BillingPlan, type Quote } from "~/domain/billing";
import { describeCoupon } from "~/domain/coupons";
import { conflict, DomainError, invalid, notFound, unauthorized, unavailable } from "~/domain/errors";
import {
  PaymentDeclined,
  PaymentsUnavailable,
  type IntentStatus,
  type PricedPlan,
  type ProviderCoupon,
} from "~/providers/payments/types";
import { actorOf } from "../accounts.server";
import { audit } from "../audit.server";
import type { Viewer } from "../session.server";
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
const LIVE_STATUSES = ["ACTIVE", "TRIALING", "PAST_DUE"] as const;

export function billingPlan(plan: PlanRow): BillingPlan {
  return {
    id: plan.id,
    title: plan.title,
    kind: plan.kind,
    amountCents: plan.amountCents,
    currency: plan.currency,
    interval: plan.interval,
    active: plan.active,
    features: plan.features,
  };
}

export function billingCoupon(coupon: CouponRow, planIds: string[]): BillingCoupon {
  return {
    id: coupon.id,
    name: coupon.name,
    duration: coupon.duration,
    durationInMonths: coupon.durationInMonths,
    amountOff: coupon.amountOff,
    percentOff: coupon.percentOff === null ? null : Number(coupon.percentOff),
    currency: coupon.currency,
    redeemBy: coupon.redeemBy,
    valid: coupon.valid,
    maxRedemptions: coupon.maxRedemptions,
    timesRedeemed: coupon.timesRedeemed,
    planIds,
  };
}

/** The coupon of an offer slug with the plans it is for, or null for an unknown or inactive offer. */
export async function couponOfSlug(
  services: AppServices,
  slug: string,
): Promise<{ coupon: BillingCoupon; discountId: number; slug: string } | null> {
  if (!/^[\w-]{1,64}$/.test(slug)) return null;
  const [row] = await services.db
    .select({ discount: couponDiscounts, coupon: coupons })
    .from(couponDiscounts)
    .innerJoin(coupons, eq(coupons.id, couponDiscounts.couponId))
    .where(and(sql`lower(${couponDiscounts.couponSlug}) = ${slug.toLowerCase()}`, eq(couponDiscounts.active, true)))
    .limit(1);
  if (!row) return null;
  const planRows = await services.db
    .select({ planId: couponPlans.planId })
    .from(couponPlans)
    .where(eq(couponPlans.couponId, row.coupon.id));
  return {
    coupon: billingCoupon(
      row.coupon,
      planRows.map((p) => p.planId),
    ),
    discountId: row.discount.id,
    slug: row.discount.couponSlug,
  };
}

export type CatalogueEntry = {
  plan: BillingPlan & { description: string | null };
  quote: Quote | null;
  /** Why the coupon in force does not lower this plan, if it does not. */
  couponNote: string | null;
};

export type Catalogue = {
  plans: CatalogueEntry[];
  coupon: { slug: string; name: string; description: string } | null;
  donation: { minCents: number; maxCents: number };
};

/** The plans with their prices, and with the coupon of `slug` where it applies. */
export async function billingCatalogue(
  services: AppServices,
  slug: string | null,
  now = new Date(),
): Promise<Catalogue> {
  const rows = await services.db.select().from(plans).where(eq(plans.active, true)).orderBy(plans.sort);
  const offer = slug ? await couponOfSlug(services, slug) : null;
  const limits = { minCents: services.config.donationMinCents, maxCents: services.config.donationMaxCents };
  const entries = rows.map((row) => {
    const plan = { ...billingPlan(row), description: row.description };
    if (plan.kind === "donation") return { plan, quote: null, couponNote: null };
    const plain = quote({ plan, now, donationLimits: limits });
    if (!offer || !offer.coupon.planIds.includes(plan.id)) {
      return { plan, quote: plain.ok ? plain.quote : null, couponNote: null };
    }
    const discounted = quote({ plan, coupon: offer.coupon, now, donationLimits: limits });
    return discounted.ok
      ? { plan, quote: discounted.quote, couponNote: null }
      : { plan, quote: plain.ok ? plain.quote : null, couponNote: discounted.message };
  });
  return {
    plans: entries,
    coupon: offer
      ? {
          slug: offer.slug,
          name: offer.coupon.name,
          description: describeCoupon({
            amount_off: offer.coupon.amountOff,
            percent_off: offer.coupon.percentOff,
            duration: offer.coupon.duration,
            duration_in_months: offer.coupon.durationInMonths,
          }),
        }
      : null,
    donation: limits,
  };
}

/** The member's subscription in force (paid, or owed after a failed renewal), if any. */
export async function liveSubscription(services: AppServices, userId: string) {
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
    if (error instanceof PaymentDeclined)
      throw new DomainError("invalid", error.message, { extra: { declined: true } });
    if (error instanceof PaymentsUnavailable) throw unavailable(PAYMENTS_DOWN_MESSAGE);
    throw error;
  }
}

export type CheckoutInput = {
  /** The form's attempt id: a second submit of the same form is the same checkout. */
  attempt: string;
  planId: string;
  donationCents: number | null;
  couponSlug: string | null;
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
    return again;
  }

  const [plan] = await db.select().from(plans).where(eq(plans.id, input.planId));
  if (!plan?.active) throw invalid("Choose a membership", { planId: ["Choose a membership"] });
  if (plan.kind === "subscription") {
    if (!userId) throw unauthorized("Sign up or log in to subscribe: a donation needs no account.");
    if (await liveSubscription(services, userId)) throw conflict(HAS_MEMBERSHIP_MESSAGE);
    await abandonUnpaidSubscriptions(services, userId);
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
    })
    .onConflictDoNothing()
    .returning();
  // Two submits of one form at the same moment: the second finds the first's checkout.
  if (!checkout) return startCheckout(services, payer, input);

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
    const message = error instanceof DomainError ? error.message : PAYMENTS_DOWN_MESSAGE;
    await db.update(checkouts).set({ status: "failed", failureMessage: message }).where(eq(checkouts.id, checkout.id));
    throw error;
  }
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

/** The intent behind a checkout's client secret (a subscription's first invoice, or the payment). */
export function intentRefOf(checkout: CheckoutRow): string | null {
  return checkout.clientSecret?.split("_secret_")[0] ?? null;
}

export type CheckoutOutcome = {
  status: "succeeded" | "processing" | "requires_action" | "failed" | "open";
  message: string;
};

/**
 * What happened to a checkout, from the provider's own record of its intent (never from the
 * return address's query), after handing over any events it has for us.
 */
export async function checkoutOutcome(services: AppServices, checkout: CheckoutRow): Promise<CheckoutOutcome> {
  await deliverSandboxEvents(services);
  const [fresh] = await services.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
  const current = fresh ?? checkout;
  if (current.status === "succeeded") return { status: "succeeded", message: successMessage(current) };
  const intentRef = intentRefOf(current);
  let status: IntentStatus | null = null;
  let failure: string | null = current.failureMessage;
  if (intentRef) {
    const intent = await callProvider(() => services.providers.payments.readIntent(intentRef));
    status = intent.status;
    failure = intent.failureMessage ?? failure;
  }
  if (status === "succeeded" || status === "processing" || current.status === "processing") {
    return { status: "processing", message: processingMessage(current) };
  }
  if (status === "requires_action") {
    return { status: "requires_action", message: "Your bank asks you to confirm this payment." };
  }
  if (current.status === "failed" || failure) {
    return { status: "failed", message: failure ?? "The payment did not go through. Nothing was charged." };
  }
  return { status: "open", message: "This payment is not finished yet." };
}

function processingMessage(checkout: CheckoutRow): string {
  if (checkout.kind === "card")
    return "Your card is saved. We are making it the card on file: this page updates itself.";
  if (checkout.kind === "subscription") {
    return "Your payment went through. We are finishing your membership: this page updates itself.";
  }
  return "Your payment went through. We are recording it: this page updates itself.";
}

function successMessage(checkout: CheckoutRow): string {
  if (checkout.kind === "subscription") return "Thank you: your membership is active.";
  if (checkout.kind === "card") return "Your card was updated.";
  if (checkout.kind === "donation") return "Thank you for your donation: a receipt is on its way by e-mail.";
  return "Thank you: your payment went through and a receipt is on its way by e-mail.";
}

/** A visitor's payments, claimed by the member who signs up with (and confirms) the same e-mail. */
export async function claimPayments(services: AppServices, userId: string, email: string): Promise<number> {
  const matches = (column: typeof payments.email | typeof checkouts.email) =>
    sql`lower(${column}) = ${email.toLowerCase()}`;
  const claimed = await services.db
    .update(payments)
    .set({ userId })
    .where(and(isNull(payments.userId), matches(payments.email)))
    .returning({ id: payments.id });
  await services.db
    .update(checkouts)
    .set({ userId })
    .where(and(isNull(checkouts.userId), matches(checkouts.email)));
  await services.db
    .update(billingCustomers)
    .set({ userId })
    .where(and(isNull(billingCustomers.userId), sql`lower(${billingCustomers.email}) = ${email.toLowerCase()}`));
  return claimed.length;
}
