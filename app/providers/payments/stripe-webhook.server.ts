import Stripe from "stripe";
import { z } from "zod";
import {
  cardSummary,
  chargeSchema,
  invoiceData,
  invoiceSchema,
  paymentData,
  parseStripe,
  paymentIntentSchema,
  setupIntentSchema,
  subscriptionData,
  subscriptionSchema,
} from "./stripe-objects.server";
import { nulMessage, nulPaths, wellFormed, wellFormedJsonText } from "~/domain/requests";
import { InvalidWebhookSignature, UnreadableWebhookEvent, type PaymentEvent } from "./types";

/** Stripe's own tolerance: a delivery signed more than 5 minutes from now (either way) may be a replay. */
const TOLERANCE_SECONDS = 300;

type EventHead = "id" | "provider" | "providerType" | "occurredAt";
/** A PaymentEvent without its head: its type and what that type carries. */
type EventBody = PaymentEvent extends infer E ? (E extends unknown ? Omit<E, EventHead> : never) : never;

const OTHER: EventBody = { type: "other" };

const envelopeSchema = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number().int(),
  data: z.object({ object: z.unknown() }),
});

function verified(stripe: Stripe, secret: string, rawBody: string, signature: string | null): unknown {
  if (!signature) throw new InvalidWebhookSignature("The delivery has no Stripe-Signature header");
  const signatures = stripe.webhooks.signature;
  if (!signatures) throw new Error("The Stripe SDK cannot check webhook signatures here");
  try {
    signatures.verifyHeader(rawBody, signature, secret, TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new InvalidWebhookSignature(error.message);
    }
    throw error;
  }
  // The SDK refuses a signature only when it is too old: one dated ahead is as much a replay
  // kept for later (or a clock far off), and the tolerance holds both ways.
  const signedAt = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature)?.[1]);
  if (signedAt - Date.now() / 1000 > TOLERANCE_SECONDS) {
    throw new InvalidWebhookSignature("The delivery is signed with a time ahead of this server's clock by over 300 s");
  }
  try {
    return JSON.parse(wellFormedJsonText(rawBody));
  } catch {
    throw new UnreadableWebhookEvent("Stripe sent a signed delivery that is not JSON", {
      id: null,
      type: null,
      payload: { text: wellFormed(rawBody.slice(0, RAW_KEPT)) },
    });
  }
}

/** What is kept of a signed delivery that is not JSON, for admins to see. */
const RAW_KEPT = 4_000;

/** The event's id and type, where a delivery we cannot read as a whole still has them. */
function headOf(value: unknown): { id: string | null; type: string | null } {
  const head = z.object({ id: z.string().max(255).optional(), type: z.string().max(255).optional() }).safeParse(value);
  return { id: head.success ? (head.data.id ?? null) : null, type: head.success ? (head.data.type ?? null) : null };
}

/**
 * Reads a signed delivery into our event; a type we do not act on is "other". A signed event
 * or object we cannot read throws UnreadableWebhookEvent: Stripe would send the same bytes
 * again, so the delivery is kept for admins and acknowledged rather than failed.
 */
export function readStripeWebhook(
  stripe: Stripe,
  secret: string,
  rawBody: string,
  signature: string | null,
): PaymentEvent {
  const delivered = verified(stripe, secret, rawBody, signature);
  // PostgreSQL's text takes no NUL: such an event could be neither applied nor stored as it is.
  const nul = nulPaths(delivered);
  if (nul.length > 0) {
    throw new UnreadableWebhookEvent(nulMessage(nul.map((path) => path || "the body")), {
      ...headOf(delivered),
      payload: delivered,
    });
  }
  try {
    const event = parseStripe(envelopeSchema, "an event", delivered);
    const body = BODIES.get(event.type)?.(event.data.object, event.type) ?? OTHER;
    return {
      id: event.id,
      provider: "stripe",
      providerType: event.type,
      occurredAt: new Date(event.created * 1000),
      ...body,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UnreadableWebhookEvent(message, { ...headOf(delivered), payload: delivered }, { cause: error });
  }
}

const subscriptionEvent =
  (type: "subscription.created" | "subscription.updated" | "subscription.deleted") =>
  (object: unknown, stripeType: string): EventBody => ({
    type,
    subscription: subscriptionData(parseStripe(subscriptionSchema, `a ${stripeType} event`, object)),
  });

const invoiceEvent =
  (type: "invoice.paid" | "invoice.payment_failed") =>
  (object: unknown, stripeType: string): EventBody => {
    const invoice = invoiceData(parseStripe(invoiceSchema, `an ${stripeType} event`, object), type === "invoice.paid");
    // An invoice outside a subscription is not one of ours.
    return invoice ? { type, invoice } : OTHER;
  };

/**
 * Only the payment intents we start carry our checkout id. A subscription's invoice makes its
 * own intent, which settles through the invoice events; since API 2025-03-31 the intent no
 * longer names its invoice, so the checkout id is what tells the two apart.
 */
const paymentEvent =
  (type: "payment.succeeded" | "payment.failed") =>
  (object: unknown, stripeType: string): EventBody => {
    const intent = parseStripe(paymentIntentSchema, `a ${stripeType} event`, object);
    return intent.metadata.checkout_id ? { type, payment: paymentData(intent) } : OTHER;
  };

function refundEvent(object: unknown, stripeType: string): EventBody {
  const charge = parseStripe(chargeSchema, `a ${stripeType} event`, object);
  if (!charge.payment_intent) return OTHER;
  return {
    type: "charge.refunded",
    refund: {
      paymentRef: charge.payment_intent,
      amountRefundedCents: charge.amount_refunded,
      currency: charge.currency,
    },
  };
}

/** A saved card: the event names it by id, so its details come from `setDefaultCard`. */
function cardEvent(object: unknown, stripeType: string): EventBody {
  const intent = parseStripe(setupIntentSchema, `a ${stripeType} event`, object);
  if (!intent.customer) return OTHER;
  const method = intent.payment_method ?? null;
  const expanded = typeof method === "string" ? null : method;
  return {
    type: "card.updated",
    card: {
      customerRef: intent.customer,
      paymentMethodRef: typeof method === "string" ? method : (expanded?.id ?? null),
      card: expanded?.card ? cardSummary(expanded.card) : null,
      metadata: intent.metadata,
    },
  };
}

// invoice.payment_succeeded is left out: it comes with invoice.paid for the same payment.
const BODIES = new Map<string, (object: unknown, stripeType: string) => EventBody>([
  ["customer.subscription.created", subscriptionEvent("subscription.created")],
  ["customer.subscription.updated", subscriptionEvent("subscription.updated")],
  ["customer.subscription.deleted", subscriptionEvent("subscription.deleted")],
  ["invoice.paid", invoiceEvent("invoice.paid")],
  ["invoice.payment_failed", invoiceEvent("invoice.payment_failed")],
  ["payment_intent.succeeded", paymentEvent("payment.succeeded")],
  ["payment_intent.payment_failed", paymentEvent("payment.failed")],
  ["charge.refunded", refundEvent],
  ["setup_intent.succeeded", cardEvent],
]);
