import { and, desc, eq, ne } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { billingCustomers, checkouts, payments, plans, type subscriptions } from "~/db/schema";
import {
  membershipActions,
  membershipEnded,
  membershipRenews,
  membershipStatusText,
  paymentStatusText,
  type MembershipActions,
  type MembershipStatus,
} from "~/domain/billing-account";
import { isComplimentary } from "~/domain/complimentary";
import { paymentTitle, type BillingPlan } from "~/domain/billing";
import { notFound } from "~/domain/errors";
import { latestSubscription, type Viewer } from "../session.server";
import { billingCatalogue } from "./catalogue.server";
import { checkoutPagePath } from "./pages.server";
import { cardEnding } from "~/domain/card-words";
import type { MembershipState } from "~/domain/words";

/**
 * A member's own billing as the pages and the API read it: the membership with its renewal,
 * the card on file, the payments, and what the member may do (account-changes.server.ts
 * does it).
 */

type SubscriptionRow = typeof subscriptions.$inferSelect;

export type Membership = {
  id: string;
  planId: string;
  plan: string;
  interval: "month" | "year" | null;
  status: MembershipStatus;
  statusText: string;
  ended: boolean;
  cancelAtPeriodEnd: boolean;
  /** The next payment's date and amount (after the coupon), while the membership renews. */
  renewsOn: string | null;
  /** The last day of a membership set to end. */
  endsOn: string | null;
  /** The day a membership that is over ended. */
  endedOn: string | null;
  periodEnd: string | null;
  amountCents: number | null;
  /** The plan's price, when the coupon lowers it. */
  listAmountCents: number | null;
  currency: string;
  /** Why a payment is overdue: the failed payment's message. */
  pastDueReason: string | null;
  actions: MembershipActions;
  /** The card page of an unfinished first payment. */
  finishPayment: string | null;
};

async function pastDueReason(db: Database, subscription: SubscriptionRow): Promise<string | null> {
  if (subscription.status !== "PAST_DUE") return null;
  const [failed] = await db
    .select({ message: payments.failureMessage })
    .from(payments)
    .where(and(eq(payments.subscriptionId, subscription.id), eq(payments.status, "failed")))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return failed?.message ?? "The last payment did not go through.";
}

async function finishPayment(db: Database, subscription: SubscriptionRow): Promise<string | null> {
  if (subscription.status !== "INCOMPLETE" || !subscription.checkoutId) return null;
  const [checkout] = await db.select().from(checkouts).where(eq(checkouts.id, subscription.checkoutId));
  return checkout?.clientSecret && checkout.status !== "succeeded" ? checkoutPagePath(checkout) : null;
}

/**
 * A membership's status in words and its dates, from its row alone: the one reading every page
 * shows (the profile, billing, the admins' member page, the API), so none says "renews" of a
 * membership that has ended.
 */
export function membershipState(subscription: SubscriptionRow): MembershipState {
  const end = subscription.currentPeriodEnd?.toISOString() ?? null;
  const endedOn = subscription.endedAt?.toISOString() ?? null;
  if (isComplimentary(subscription)) {
    const live = subscription.status === "ACTIVE";
    return {
      statusText: live ? "Complimentary" : "Complimentary, ended",
      ended: !live,
      renewsOn: null,
      endsOn: live ? end : null,
      endedOn: live ? null : endedOn,
    };
  }
  const ended = membershipEnded(subscription.status);
  return {
    statusText: membershipStatusText(subscription.status, subscription.cancelAtPeriodEnd),
    ended,
    renewsOn: membershipRenews(subscription.status, subscription.cancelAtPeriodEnd) ? end : null,
    endsOn: subscription.cancelAtPeriodEnd && !ended ? end : null,
    endedOn: ended ? endedOn : null,
  };
}

/** The member's latest membership in the words and dates the pages and the API show. */
export async function membershipOf(
  services: AppServices,
  userId: string,
  /** The member's latest subscription when the caller has it already (the viewer's). */
  known?: Awaited<ReturnType<typeof latestSubscription>>,
): Promise<Membership | null> {
  const { db } = services;
  const subscription = known !== undefined ? known : await latestSubscription(db, userId);
  if (!subscription) return null;
  const end = subscription.currentPeriodEnd?.toISOString() ?? null;
  const amount = subscription.amountCents;
  if (isComplimentary(subscription)) return complimentaryMembership(subscription, end);
  return {
    ...membershipPlan(subscription),
    ...membershipState(subscription),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    periodEnd: end,
    amountCents: amount,
    listAmountCents:
      subscription.listAmountCents !== null && amount !== null && subscription.listAmountCents > amount
        ? subscription.listAmountCents
        : null,
    pastDueReason: await pastDueReason(db, subscription),
    actions: membershipActions(subscription.status, subscription.cancelAtPeriodEnd),
    finishPayment: await finishPayment(db, subscription),
  };
}

type LatestSubscription = NonNullable<Awaited<ReturnType<typeof latestSubscription>>>;

/** Which membership it is: the plan, its status and currency. */
const membershipPlan = (subscription: LatestSubscription) => ({
  id: subscription.id,
  planId: subscription.planId,
  plan: subscription.planTitle,
  interval: subscription.planInterval,
  status: subscription.status,
  currency: subscription.currency,
});

const NO_ACTIONS: MembershipActions = { changePlan: false, cancel: false, resume: false, updateCard: false };

/** A complimentary membership: nothing to pay, nothing to change at a provider; it ends on its day, if it has one. */
function complimentaryMembership(subscription: LatestSubscription, end: string | null): Membership {
  return {
    ...membershipPlan(subscription),
    ...membershipState(subscription),
    cancelAtPeriodEnd: false,
    periodEnd: end,
    amountCents: null,
    listAmountCents: null,
    pastDueReason: null,
    actions: NO_ACTIONS,
    finishPayment: null,
  };
}

export type PaymentLine = {
  id: string;
  date: string;
  what: string;
  periodStart: string | null;
  periodEnd: string | null;
  amountCents: number;
  /** The price before the coupon, when the coupon lowered it. */
  listAmountCents: number | null;
  refundedCents: number;
  currency: string;
  status: (typeof payments.$inferSelect)["status"];
  statusText: string;
  card: string | null;
  /** A receipt is for money received: not for a failed or pending payment. */
  hasReceipt: boolean;
};

type PaymentRow = typeof payments.$inferSelect;

export const paymentWhat = (payment: Pick<PaymentRow, "kind">, planTitle: string | null) =>
  paymentTitle(payment.kind, planTitle);

export function paymentLine(payment: PaymentRow, planTitle: string | null): PaymentLine {
  return {
    id: payment.id,
    date: payment.createdAt.toISOString(),
    what: paymentWhat(payment, planTitle),
    periodStart: payment.periodStart?.toISOString() ?? null,
    periodEnd: payment.periodEnd?.toISOString() ?? null,
    amountCents: payment.amountCents,
    listAmountCents:
      payment.listAmountCents !== null && payment.listAmountCents > payment.amountCents
        ? payment.listAmountCents
        : null,
    refundedCents: payment.refundedCents,
    currency: payment.currency,
    status: payment.status,
    statusText: paymentStatusText(payment),
    card: payment.cardLast4 ? cardEnding(payment.cardBrand, payment.cardLast4) : null,
    hasReceipt: payment.status === "succeeded" || payment.status === "refunded",
  };
}

/** A member's payments, newest first (all of them, or the latest `limit`). */
export async function paymentLines(db: Database, userId: string, limit?: number): Promise<PaymentLine[]> {
  const query = db
    .select({ payment: payments, plan: plans.title })
    .from(payments)
    .leftJoin(plans, eq(plans.id, payments.planId))
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id));
  const rows = limit ? await query.limit(limit) : await query;
  return rows.map((row) => paymentLine(row.payment, row.plan));
}

export type CardOnFile = { brand: string; last4: string; expMonth: number | null; expYear: number | null };

async function cardOnFile(services: AppServices, userId: string): Promise<CardOnFile | null> {
  const [customer] = await services.db
    .select()
    .from(billingCustomers)
    .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, services.providers.payments.name)));
  if (!customer?.cardLast4) return null;
  const card = {
    brand: customer.cardBrand ?? "Card",
    last4: customer.cardLast4,
    expMonth: customer.cardExpMonth,
    expYear: customer.cardExpYear,
  };
  return card.expMonth ? card : withExpiry(services, customer.id, customer.providerCustomerId, card);
}

/**
 * A payment's event names its card without the expiry: the provider's record of the card on
 * file gives it, kept once read. The card is shown without it while the provider does not answer.
 */
async function withExpiry(services: AppServices, id: string, customerRef: string, card: CardOnFile) {
  const known = await services.providers.payments.readCard(customerRef).catch((error: unknown) => {
    services.logger.warn({ err: error, customerRef }, "the card on file could not be read");
    return null;
  });
  if (known?.last4 !== card.last4) return card;
  await services.db
    .update(billingCustomers)
    .set({ cardExpMonth: known.expMonth, cardExpYear: known.expYear })
    .where(and(eq(billingCustomers.id, id), eq(billingCustomers.cardLast4, card.last4)));
  return { ...card, expMonth: known.expMonth, expYear: known.expYear };
}

export type PlanChoice = { id: string; title: string; amountCents: number; currency: string; interval: string | null };

/** The other membership plans a membership may move to: active subscriptions in its currency. */
async function otherPlans(db: Database, membership: Membership | null): Promise<PlanChoice[]> {
  if (!membership?.actions.changePlan) return [];
  const rows = await db
    .select()
    .from(plans)
    .where(and(eq(plans.active, true), eq(plans.kind, "subscription"), ne(plans.id, membership.planId)))
    .orderBy(plans.sort);
  return rows
    .filter((plan) => plan.amountCents !== null && plan.currency === membership.currency)
    .map((plan) => ({
      id: plan.id,
      title: plan.title,
      amountCents: plan.amountCents!,
      currency: plan.currency,
      interval: plan.interval,
    }));
}

export type BillingPage = {
  /** The forms' attempt id: a second submit of one form is one change at the provider. */
  attempt: string;
  membership: Membership | null;
  card: CardOnFile | null;
  plans: PlanChoice[];
  payments: PaymentLine[];
};

export async function billingPage(services: AppServices, viewer: Viewer, attempt: string): Promise<BillingPage> {
  const userId = viewer.member.id;
  const membership = await membershipOf(services, userId);
  return {
    attempt,
    membership,
    card: await cardOnFile(services, userId),
    plans: await otherPlans(services.db, membership),
    payments: await paymentLines(services.db, userId),
  };
}

/** One of the member's own payments; another member's, or none, is the same not-found. */
export async function ownPayment(services: AppServices, viewer: Viewer, paymentId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(paymentId)) throw notFound();
  const [row] = await services.db
    .select({ payment: payments, plan: plans })
    .from(payments)
    .leftJoin(plans, eq(plans.id, payments.planId))
    .where(and(eq(payments.id, paymentId), eq(payments.userId, viewer.member.id)));
  if (!row) throw notFound();
  return row;
}

/** A plan as the frame lists it: its price after any coupon; null for a donation's amount of choice. */
export type EmbedPlan = Pick<BillingPlan, "id" | "title" | "kind" | "amountCents" | "currency" | "interval">;

/** What /embed/subscription shows anyone: the plans with their prices, and where the full site is. */
export async function embedSubscriptionPage(services: AppServices) {
  const { plans: entries } = await billingCatalogue(services, null);
  const plans: EmbedPlan[] = entries.map(({ plan, quote }) => ({
    id: plan.id,
    title: plan.title,
    kind: plan.kind,
    amountCents: quote?.amountCents ?? null,
    currency: plan.currency,
    interval: plan.interval,
  }));
  return { plans, baseUrl: services.config.baseUrl, supportEmail: services.config.supportEmail };
}
