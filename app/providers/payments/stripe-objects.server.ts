import { z } from "zod";
import type {
  CardSummary,
  IntentState,
  IntentStatus,
  InvoiceData,
  PaymentData,
  SubscriptionData,
  SubscriptionStatus,
} from "./types";

/**
 * The Stripe objects the adapter reads, as the pinned API version sends them (the SDK's types
 * in node_modules/stripe/cjs/resources), parsed with zod rather than trusted: a webhook
 * endpoint may be set to another API version than the SDK's, and a field that moved must fail
 * loudly instead of reading as undefined. Only the fields we use are named.
 */

/** Reads a Stripe reply or event object; what Stripe sent that we cannot read is an error of ours to fix. */
export function parseStripe<S extends z.ZodTypeAny>(schema: S, what: string, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Stripe sent ${what} we cannot read: ${issue?.path.join(".")} ${issue?.message}`);
  }
  return parsed.data;
}

const metadata = z
  .record(z.string())
  .nullish()
  .transform((value) => value ?? {});

/** An id, or the object it names when it was expanded. */
const ref = z
  .union([z.string(), z.object({ id: z.string() })])
  .transform((value) => (typeof value === "string" ? value : value.id));

/** Stripe's Unix seconds. */
const instant = z
  .number()
  .int()
  .nullish()
  .transform((seconds) => (seconds === null || seconds === undefined ? null : new Date(seconds * 1000)));

const STATUSES: Record<string, SubscriptionStatus> = {
  incomplete: "INCOMPLETE",
  incomplete_expired: "INCOMPLETE_EXPIRED",
  trialing: "TRIALING",
  active: "ACTIVE",
  past_due: "PAST_DUE",
  canceled: "CANCELED",
  unpaid: "UNPAID",
  paused: "PAUSED",
};

const subscriptionStatus = z.string().transform((status, ctx) => {
  const ours = STATUSES[status];
  if (!ours) ctx.addIssue({ code: "custom", message: `unknown subscription status "${status}"` });
  return ours ?? "INCOMPLETE";
});

const cardSchema = z.object({ brand: z.string(), last4: z.string(), exp_month: z.number(), exp_year: z.number() });

export const paymentMethodSchema = z.object({ id: z.string(), card: cardSchema.nullish() });

export function cardSummary(card: z.infer<typeof cardSchema>): CardSummary {
  return { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
}

export const priceSchema = z.object({ id: z.string(), lookup_key: z.string().nullish(), metadata });

export const priceListSchema = z.object({ data: z.array(priceSchema) });

export const customerSchema = z.union([
  z.object({ id: z.string(), deleted: z.literal(true) }),
  z.object({
    id: z.string(),
    deleted: z.undefined().optional(),
    invoice_settings: z.object({ default_payment_method: ref.nullish() }).nullish(),
  }),
]);

export const invoiceSchema = z.object({
  id: z.string(),
  customer: ref.nullish(),
  amount_due: z.number().int(),
  amount_paid: z.number().int(),
  subtotal: z.number().int(),
  currency: z.string(),
  period_start: instant,
  period_end: instant,
  billing_reason: z.string().nullish(),
  metadata,
  // Since API 2025-03-31 an invoice names its subscription under `parent`; before, at the top.
  parent: z
    .object({
      subscription_details: z.object({ subscription: ref, metadata }).nullish(),
    })
    .nullish(),
  subscription: ref.nullish(),
  lines: z
    .object({ data: z.array(z.object({ period: z.object({ start: instant, end: instant }).nullish() })) })
    .nullish(),
  last_finalization_error: z.object({ message: z.string().nullish() }).nullish(),
  // Only present when asked for with `expand`.
  confirmation_secret: z.object({ client_secret: z.string() }).nullish(),
});
export type StripeInvoice = z.infer<typeof invoiceSchema>;

const subscriptionItemSchema = z.object({
  id: z.string(),
  // Since API 2025-03-31 the period is each item's; before, the subscription's.
  current_period_start: instant,
  current_period_end: instant,
  price: priceSchema,
});

export const subscriptionSchema = z.object({
  id: z.string(),
  customer: ref,
  status: subscriptionStatus,
  cancel_at_period_end: z.boolean(),
  canceled_at: instant,
  ended_at: instant,
  current_period_start: instant,
  current_period_end: instant,
  metadata,
  items: z.object({ data: z.array(subscriptionItemSchema) }),
  latest_invoice: z.union([z.string(), invoiceSchema]).nullish(),
  default_payment_method: ref.nullish(),
});
export type StripeSubscription = z.infer<typeof subscriptionSchema>;

export const subscriptionListSchema = z.object({ data: z.array(subscriptionSchema) });

const intentStatus = z.enum([
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
  "processing",
  "succeeded",
  "canceled",
]) satisfies z.ZodType<IntentStatus>;

export const paymentIntentSchema = z.object({
  id: z.string(),
  status: intentStatus,
  amount: z.number().int(),
  currency: z.string(),
  client_secret: z.string().nullish(),
  customer: ref.nullish(),
  metadata,
  last_payment_error: z.object({ message: z.string().nullish() }).nullish(),
});

export const setupIntentSchema = z.object({
  id: z.string(),
  status: intentStatus,
  client_secret: z.string().nullish(),
  customer: ref.nullish(),
  metadata,
  last_setup_error: z.object({ message: z.string().nullish() }).nullish(),
  payment_method: z.union([z.string(), paymentMethodSchema]).nullish(),
});

/** A refund (`POST /v1/refunds`): Stripe's `pending` is as good as made, `failed` and `canceled` are not. */
export const refundSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  status: z.string().nullish(),
  payment_intent: ref.nullish(),
});

export const chargeSchema = z.object({
  id: z.string(),
  payment_intent: ref.nullish(),
  amount_refunded: z.number().int(),
  currency: z.string(),
});

/**
 * Our plan id as the subscription's price names it: the price we made carries it in its
 * metadata and lookup key; a price made in Stripe's dashboard leaves the subscription's own.
 */
function planIdOf(subscription: StripeSubscription): string | null {
  const price = subscription.items.data[0]?.price;
  return (
    price?.metadata.plan_id ?? planIdFromLookupKey(price?.lookup_key ?? null) ?? subscription.metadata.plan_id ?? null
  );
}

const LOOKUP_PREFIX = "memberhall_";

/** The lookup key of our plan's price at Stripe: a new amount, currency or interval is a new price. */
export function priceLookupKey(plan: { id: string; amountCents: number; currency: string; interval: string }): string {
  return `${LOOKUP_PREFIX}${plan.id}_${plan.amountCents}_${plan.currency.toLowerCase()}_${plan.interval}`;
}

function planIdFromLookupKey(key: string | null): string | null {
  if (!key?.startsWith(LOOKUP_PREFIX)) return null;
  // The plan id may hold underscores; the three parts after it never do.
  const parts = key.slice(LOOKUP_PREFIX.length).split("_");
  return parts.length > 3 ? parts.slice(0, -3).join("_") : null;
}

export function subscriptionData(subscription: StripeSubscription): SubscriptionData {
  const item = subscription.items.data[0];
  return {
    ref: subscription.id,
    customerRef: subscription.customer,
    status: subscription.status,
    currentPeriodStart: item?.current_period_start ?? subscription.current_period_start,
    currentPeriodEnd: item?.current_period_end ?? subscription.current_period_end,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: subscription.canceled_at,
    endedAt: subscription.ended_at,
    planId: planIdOf(subscription),
    metadata: subscription.metadata,
  };
}

export function invoiceData(invoice: StripeInvoice, paid: boolean): InvoiceData | null {
  const details = invoice.parent?.subscription_details;
  const subscriptionRef = details?.subscription ?? invoice.subscription;
  if (!subscriptionRef || !invoice.customer) return null;
  // An invoice's own period is when it was drawn up; its subscription line's is the paid period.
  const period = invoice.lines?.data[0]?.period;
  return {
    ref: invoice.id,
    subscriptionRef,
    customerRef: invoice.customer,
    amountCents: paid ? invoice.amount_paid : invoice.amount_due,
    subtotalCents: invoice.subtotal,
    currency: invoice.currency,
    periodStart: period?.start ?? invoice.period_start,
    periodEnd: period?.end ?? invoice.period_end,
    billingReason: invoice.billing_reason ?? null,
    failureMessage: paid ? null : (invoice.last_finalization_error?.message ?? null),
    // The card is on the invoice's payment, which an event does not carry.
    card: null,
    // The subscription's metadata (our checkout id) as it was when the invoice was made.
    metadata: { ...details?.metadata, ...invoice.metadata },
  };
}

type StripePaymentIntent = z.infer<typeof paymentIntentSchema>;

export function intentState(intent: StripePaymentIntent): IntentState {
  return {
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    failureMessage: intent.last_payment_error?.message ?? null,
    metadata: intent.metadata,
  };
}

/** A setup intent's state in the same terms: nothing is charged, so its amount is 0. */
export function setupIntentState(intent: z.infer<typeof setupIntentSchema>): IntentState {
  return {
    status: intent.status,
    amountCents: 0,
    currency: "usd",
    failureMessage: intent.last_setup_error?.message ?? null,
    metadata: intent.metadata,
  };
}

export function paymentData(intent: StripePaymentIntent): PaymentData {
  return {
    ref: intent.id,
    customerRef: intent.customer ?? null,
    amountCents: intent.amount,
    currency: intent.currency,
    failureMessage: intent.last_payment_error?.message ?? null,
    // The event names the payment method by id only.
    card: null,
    metadata: intent.metadata,
  };
}
