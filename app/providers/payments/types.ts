import { ProviderError, providerFailure } from "../errors";

/**
 * Card payments: one interface, two adapters (Stripe, and the built-in sandbox).
 *
 * A card number never reaches our server. The server asks the provider for a subscription or
 * a payment intent and gets a client secret; the browser confirms it with the provider's own
 * client (Stripe's Payment Element, or the sandbox's card page); the provider's event then
 * settles it through `receivePaymentEvent` (app/services/billing/events.server.ts).
 */

export type ProviderName = "sandbox" | "stripe";

/** Statuses as our subscriptions table keeps them (spec: sub_status ACTIVE, PAST_DUE, CANCELED…). */
export type SubscriptionStatus =
  "INCOMPLETE" | "INCOMPLETE_EXPIRED" | "TRIALING" | "ACTIVE" | "PAST_DUE" | "CANCELED" | "UNPAID" | "PAUSED";

/** A payment intent's or setup intent's status, in the provider's terms (Stripe's). */
export type IntentStatus =
  "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "succeeded" | "canceled";

export type PricedPlan = {
  id: string;
  title: string;
  kind: "subscription" | "donation" | "credit";
  /** The plan's price (a donation's: the amount the member chose). */
  amountCents: number;
  currency: string;
  interval: "month" | "year" | null;
  /** The provider's price, where the plan has one made already. */
  providerPriceId: string | null;
};

export type ProviderCoupon = {
  id: string;
  name: string;
  /** The coupon at the provider, where it has been made there already. */
  providerRef: string | null;
  amountOff: number | null;
  percentOff: number | null;
  currency: string | null;
  duration: "once" | "repeating" | "forever";
  durationInMonths: number | null;
};

/** What the browser needs to confirm a client secret. */
export type BrowserClient = { kind: "stripe"; publishableKey: string } | { kind: "sandbox" };

export type CustomerInput = { email: string; name: string | null; userId: string | null };

export type StartedSubscription = {
  subscriptionRef: string;
  status: SubscriptionStatus;
  /** The first invoice's payment to confirm in the browser; null when nothing is due (a 100 % coupon). */
  clientSecret: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  amountDueCents: number;
};

export type StartedIntent = { intentRef: string; clientSecret: string; status: IntentStatus };

export type IntentState = {
  status: IntentStatus;
  amountCents: number;
  currency: string;
  /** The decline or error the member should read ('Your card was declined.'). */
  failureMessage: string | null;
  metadata: Record<string, string>;
};

/** Card on file as the provider reports it. */
export type CardSummary = { brand: string; last4: string; expMonth: number; expYear: number };

/**
 * Every change the payments side tells us about, in our terms. Both adapters emit these and
 * one handler applies them; `metadata.checkout_id` ties an event to the checkout that began it.
 */
export type PaymentEvent = {
  /** The provider's event id: stored with a unique key, so a replay changes nothing. */
  id: string;
  provider: ProviderName;
  /** The provider's own type ("invoice.paid"), kept for the record. */
  providerType: string;
  occurredAt: Date;
} & (
  | { type: "subscription.created" | "subscription.updated" | "subscription.deleted"; subscription: SubscriptionData }
  | { type: "invoice.paid" | "invoice.payment_failed"; invoice: InvoiceData }
  | { type: "payment.succeeded" | "payment.failed"; payment: PaymentData }
  | { type: "charge.refunded"; refund: RefundData }
  | { type: "card.updated"; card: CardUpdateData }
  | { type: "other" }
);

export type SubscriptionData = {
  ref: string;
  customerRef: string;
  status: SubscriptionStatus;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  endedAt: Date | null;
  /** Our plan id, where the provider's price or metadata names it. */
  planId: string | null;
  metadata: Record<string, string>;
};

export type InvoiceData = {
  ref: string;
  subscriptionRef: string;
  customerRef: string;
  /** Paid (invoice.paid) or due (invoice.payment_failed). */
  amountCents: number;
  /** Before discounts. */
  subtotalCents: number;
  currency: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  /** "subscription_create", "subscription_cycle", "subscription_update"… */
  billingReason: string | null;
  failureMessage: string | null;
  card: Pick<CardSummary, "brand" | "last4"> | null;
  metadata: Record<string, string>;
};

export type PaymentData = {
  ref: string;
  customerRef: string | null;
  amountCents: number;
  currency: string;
  failureMessage: string | null;
  card: Pick<CardSummary, "brand" | "last4"> | null;
  metadata: Record<string, string>;
};

export type RefundData = {
  /** The payment intent the refunded charge belongs to. */
  paymentRef: string;
  amountRefundedCents: number;
  currency: string;
};

export type CardUpdateData = {
  customerRef: string;
  /** The new card at the provider: `setDefaultCard` makes it the one later payments use. */
  paymentMethodRef: string | null;
  /** Null when the event names the card without its details (Stripe's do): `setDefaultCard` returns them. */
  card: CardSummary | null;
  metadata: Record<string, string>;
};

/** A refusal the member should read, from the provider (a decline, a bad coupon at Stripe). */
export class PaymentDeclined extends providerFailure("payments", "payment_declined", "PaymentDeclined") {}

/** The provider cannot be reached or failed: nothing was charged, try again later. */
export class PaymentsUnavailable extends providerFailure("payments", "provider_unavailable", "PaymentsUnavailable") {}

/**
 * A correctly signed delivery the app cannot read (not JSON, an event or object of a shape we
 * do not know): what could be read of it comes along for admins to see.
 */
export class UnreadableWebhookEvent extends ProviderError {
  override name = "UnreadableWebhookEvent";
  constructor(
    message: string,
    readonly event: { id: string | null; type: string | null; payload: unknown },
    options?: ErrorOptions,
  ) {
    super("payments", "unreadable_event", message, options);
  }
}

/** A webhook delivery whose signature does not check out (400). */
export class InvalidWebhookSignature extends providerFailure(
  "payments",
  "invalid_signature",
  "InvalidWebhookSignature",
) {}

export interface PaymentsProvider {
  readonly name: ProviderName;
  readonly client: BrowserClient;
  /** A link for admins to the provider's coupons (Stripe's test-mode page, or the sandbox's list). */
  readonly couponsLink: string;

  /** Makes the customer for a payer who has none yet; the caller keeps the ref and reuses it. */
  createCustomer(input: CustomerInput, idempotencyKey: string): Promise<{ customerRef: string }>;

  /**
   * Starts a subscription to the plan, incomplete until its first invoice is paid
   * (Stripe: `payment_behavior: 'default_incomplete'`), with the coupon through `discounts`.
   * `idempotencyKey` is the checkout's id: a retried attempt is one subscription.
   */
  startSubscription(input: {
    customerRef: string;
    plan: PricedPlan;
    coupon: ProviderCoupon | null;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<StartedSubscription>;

  /** A one-off payment (a donation or a credit) of `amountCents`, already after any coupon. */
  startPayment(input: {
    customerRef: string | null;
    email: string;
    amountCents: number;
    currency: string;
    description: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<StartedIntent>;

  /** A payment intent's current state: the return page reads it rather than trusting the query. */
  readIntent(intentRef: string): Promise<IntentState>;

  /** Cancels now, or at the end of the paid period (and `resumeSubscription` undoes that). */
  cancelSubscription(subscriptionRef: string, options: { atPeriodEnd: boolean }): Promise<SubscriptionData>;
  resumeSubscription(subscriptionRef: string): Promise<SubscriptionData>;

  /** Moves a subscription to another plan's price, prorated. */
  changePlan(subscriptionRef: string, plan: PricedPlan, idempotencyKey: string): Promise<SubscriptionData>;

  /** A setup intent to replace the card on file; its confirmation emits `card.updated`. */
  startCardUpdate(
    customerRef: string,
    idempotencyKey: string,
    metadata: Record<string, string>,
  ): Promise<StartedIntent>;

  /**
   * Removes the customer and the cards saved for them (Stripe: `DELETE /v1/customers/{id}`),
   * when a member's account is deleted. A customer already gone counts as removed.
   */
  deleteCustomer(customerRef: string): Promise<void>;

  /**
   * Gives back part or all of a succeeded one-off payment (Stripe: `POST /v1/refunds` with the
   * payment intent and the amount). `idempotencyKey` names what is given back (a cancelled
   * letter): asked again, it is the same refund. Its `charge.refunded` event follows.
   */
  refundPayment(input: {
    intentRef: string;
    amountCents: number;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ refundRef: string; amountCents: number }>;

  /** The card on file, or null. */
  readCard(customerRef: string): Promise<CardSummary | null>;

  /**
   * Makes a card saved by `startCardUpdate` the one later payments use, and returns it. Stripe
   * keeps charging the old card until told: a saved card is not the customer's default, and a
   * subscription's own default comes before the customer's.
   */
  setDefaultCard(customerRef: string, paymentMethodRef: string): Promise<CardSummary | null>;

  /**
   * Reads a webhook delivery: the raw body as received and its signature header. Throws
   * InvalidWebhookSignature for a bad or stale (over 300 s) signature, and UnreadableWebhookEvent
   * for a signed one it cannot read. The sandbox has no webhooks: it emits its events itself.
   */
  readWebhook(rawBody: string, signature: string | null): PaymentEvent;
}

/** The sandbox's own calls, used by its card page, its 3-D Secure page, its renewals and admins. */
export type SandboxPayments = PaymentsProvider & {
  readonly name: "sandbox";
  /** The card page's submit: confirms the intent behind `clientSecret` with the card typed. */
  confirmCard(
    clientSecret: string,
    card: { number: string; expiry: string; cvc: string },
    now?: Date,
  ): Promise<{ intentRef: string; status: IntentStatus; failureMessage: string | null }>;
  /** The 3-D Secure page: the member completes (or fails) the extra step. */
  authenticate(intentRef: string, approve: boolean): Promise<{ status: IntentStatus; failureMessage: string | null }>;
  /** What the 3-D Secure page shows. */
  readIntentSummary(
    intentRef: string,
  ): Promise<{ amountCents: number; currency: string; status: IntentStatus; description: string } | null>;
  /** Intent behind a client secret (the card page shows what is being paid). */
  intentForSecret(clientSecret: string): Promise<{
    intentRef: string;
    object: "payment_intent" | "setup_intent";
    amountCents: number;
    currency: string;
    description: string;
    status: IntentStatus;
  } | null>;
  /** Renews every subscription whose period has ended (or the one named, now). */
  renewDue(now: Date, onlySubscriptionRef?: string): Promise<number>;
  /** Events not yet handed to the app, oldest first. */
  undeliveredEvents(limit?: number): Promise<PaymentEvent[]>;
  markDelivered(eventId: string): Promise<void>;
};
