import Stripe from "stripe";

/**
 * Stripe's objects as the SDK's pinned API version (Stripe.API_VERSION) sends them, with the
 * fields a reader of that version meets: the subscription's period on its items, the
 * invoice's subscription under `parent`, the first invoice's secret in `confirmation_secret`.
 * Built fresh by the fake Stripe (./stripe.ts), which keeps and changes them.
 */

export type StripeObject = Record<string, unknown> & { id: string };

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
export const now = () => seconds(new Date());

export function customerObject(
  id: string,
  fields: { email: string | null; name: string | null; metadata: Record<string, string> },
): StripeObject {
  return {
    id,
    object: "customer",
    address: null,
    balance: 0,
    created: now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: fields.email,
    invoice_prefix: "MH0001",
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata,
    name: fields.name,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function productObject(id: string, name: string): StripeObject {
  return { id, object: "product", active: true, created: now(), livemode: false, metadata: {}, name };
}

export function priceObject(
  id: string,
  fields: {
    product: string;
    currency: string;
    unitAmount: number;
    interval: string | null;
    lookupKey: string | null;
    metadata: Record<string, string>;
  },
): StripeObject {
  return {
    id,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: now(),
    currency: fields.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: fields.lookupKey,
    metadata: fields.metadata,
    nickname: null,
    product: fields.product,
    recurring: fields.interval
      ? { interval: fields.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" }
      : null,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: fields.interval ? "recurring" : "one_time",
    unit_amount: fields.unitAmount,
    unit_amount_decimal: String(fields.unitAmount),
  };
}

export function couponObject(
  id: string,
  fields: {
    name: string | null;
    duration: string;
    durationInMonths: number | null;
    amountOff: number | null;
    currency: string | null;
    percentOff: number | null;
  },
): StripeObject {
  return {
    id,
    object: "coupon",
    amount_off: fields.amountOff,
    created: now(),
    currency: fields.currency,
    duration: fields.duration,
    duration_in_months: fields.durationInMonths,
    livemode: false,
    max_redemptions: null,
    metadata: {},
    name: fields.name,
    percent_off: fields.percentOff,
    redeem_by: null,
    times_redeemed: 0,
    valid: true,
  };
}

export function subscriptionItemObject(id: string, subscription: string, price: StripeObject, start: Date, end: Date) {
  return {
    id,
    object: "subscription_item",
    billing_thresholds: null,
    created: now(),
    current_period_end: seconds(end),
    current_period_start: seconds(start),
    discounts: [],
    metadata: {},
    price,
    quantity: 1,
    subscription,
    tax_rates: [],
  };
}

export function subscriptionObject(
  id: string,
  fields: {
    customer: string;
    currency: string;
    item: ReturnType<typeof subscriptionItemObject>;
    discounts: string[];
    metadata: Record<string, string>;
    saveDefaultPaymentMethod: string;
    status: string;
  },
): StripeObject {
  return {
    id,
    object: "subscription",
    billing_cycle_anchor: now(),
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: now() },
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: now(),
    currency: fields.currency,
    customer: fields.customer,
    default_payment_method: null,
    discounts: fields.discounts,
    ended_at: null,
    items: {
      object: "list",
      data: [fields.item],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: fields.metadata,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: fields.saveDefaultPaymentMethod,
    },
    start_date: now(),
    status: fields.status,
    trial_end: null,
    trial_start: null,
  };
}

/** A subscription's first invoice: its one line is the subscription item's first period. */
export function firstInvoiceObject(
  id: string,
  lineId: string,
  fields: {
    subscription: StripeObject;
    item: ReturnType<typeof subscriptionItemObject>;
    productName: string;
    amountDue: number;
  },
): StripeObject {
  const { subscription, item, amountDue } = fields;
  const price = item.price;
  const listAmount = price.unit_amount as number;
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Memberhall test",
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    attempt_count: 0,
    attempted: amountDue === 0,
    billing_reason: "subscription_create",
    collection_method: "charge_automatically",
    created: now(),
    currency: price.currency,
    customer: subscription.customer,
    discounts: subscription.discounts,
    last_finalization_error: null,
    lines: {
      object: "list",
      data: [
        {
          id: lineId,
          object: "line_item",
          amount: listAmount,
          currency: price.currency,
          description: `1 × ${fields.productName}`,
          parent: {
            type: "subscription_item_details",
            invoice_item_details: null,
            subscription_item_details: { subscription: subscription.id, subscription_item: item.id, proration: false },
          },
          period: { start: item.current_period_start, end: item.current_period_end },
          pricing: { type: "price_details", price_details: { price: price.id, product: price.product } },
          quantity: 1,
          subtotal: listAmount,
        },
      ],
      has_more: false,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
    },
    // An invoice's own period is the moment it was drawn up, not the period it pays for.
    period_end: now(),
    period_start: now(),
    status: amountDue > 0 ? "open" : "paid",
    subtotal: listAmount,
    total: amountDue,
  };
}

export function paymentIntentObject(
  id: string,
  clientSecret: string,
  fields: {
    amount: number;
    currency: string;
    customer: string | null;
    description: string | null;
    receiptEmail: string | null;
    metadata: Record<string, string>;
  },
): StripeObject {
  return {
    id,
    object: "payment_intent",
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    automatic_payment_methods: { allow_redirects: "always", enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: clientSecret,
    confirmation_method: "automatic",
    created: now(),
    currency: fields.currency,
    customer: fields.customer,
    description: fields.description,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: fields.metadata,
    next_action: null,
    payment_method: null,
    payment_method_types: ["card", "link"],
    receipt_email: fields.receiptEmail,
    setup_future_usage: null,
    status: "requires_payment_method",
  };
}

export function setupIntentObject(
  id: string,
  clientSecret: string,
  fields: { customer: string; usage: string; metadata: Record<string, string> },
): StripeObject {
  return {
    id,
    object: "setup_intent",
    automatic_payment_methods: { allow_redirects: "always", enabled: true },
    client_secret: clientSecret,
    created: now(),
    customer: fields.customer,
    description: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    metadata: fields.metadata,
    next_action: null,
    payment_method: null,
    payment_method_types: ["card", "link"],
    status: "requires_payment_method",
    usage: fields.usage,
  };
}

export function cardMethodObject(
  id: string,
  card: { brand: string; last4: string },
  customer: string | null,
): StripeObject {
  return {
    id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: card.brand,
      exp_month: 12,
      exp_year: 2034,
      fingerprint: `fp${card.last4}`,
      funding: "credit",
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: now(),
    customer,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

export function chargeObject(id: string, intent: StripeObject, paymentMethod: string): StripeObject {
  return {
    id,
    object: "charge",
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: 0,
    captured: true,
    created: now(),
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    livemode: false,
    metadata: intent.metadata,
    paid: true,
    payment_intent: intent.id,
    payment_method: paymentMethod,
    refunded: false,
    status: "succeeded",
  };
}

/** An event as Stripe delivers it to a webhook endpoint. */
export function eventObject(
  id: string,
  requestId: string,
  type: string,
  object: unknown,
  previousAttributes?: Record<string, unknown>,
) {
  return {
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: now(),
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: requestId, idempotency_key: null },
    type,
  };
}
