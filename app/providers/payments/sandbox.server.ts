import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { sandboxObjects } from "~/db/schema";
import { addInterval, couponPayments, renewalAmount } from "~/domain/billing";
import { cardNotExpired } from "~/domain/card";
import { applyCoupon } from "~/domain/coupons";
import {
  readLockedObject,
  readObject,
  sandboxEventFeed,
  writeObject,
  type SandboxStore,
  type SandboxTx,
} from "../sandbox-objects.server";
import type {
  CardSummary,
  IntentStatus,
  PaymentEvent,
  PricedPlan,
  SandboxPayments,
  ProviderCoupon,
  StartedIntent,
  SubscriptionData,
  SubscriptionStatus,
} from "./types";
import { InvalidWebhookSignature, PaymentDeclined } from "./types";

/**
 * The built-in payments provider: no account, no network. It keeps its own records
 * (customers, cards, intents, subscriptions, invoices, events) in `sandbox_objects`, as a
 * real provider keeps them on its side, and behaves like a card network's test mode:
 * - 4242 4242 4242 4242 succeeds;
 * - 4000 0000 0000 0002 is declined ('Your card was declined.');
 * - 4000 0025 0000 3155 asks for an extra confirmation step (a 3-D Secure page) first;
 * - 4000 0000 0000 0341 attaches, and the first renewal's charge fails.
 * Each change writes its events in the same transaction; `deliverEvents` hands them to the
 * app's one event handler, and whatever was not delivered (a crash) is delivered by the next
 * sweep, as a provider retries its webhooks.
 */

export const SANDBOX_CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
  authenticate: "4000002500003155",
  failsRenewal: "4000000000000341",
} as const;

export const DECLINED_MESSAGE = "Your card was declined.";
export const EXPIRED_MESSAGE = "Your card has expired.";
export const UNKNOWN_CARD_MESSAGE =
  "This is the sandbox: use a test card such as 4242 4242 4242 4242 (see the list on this page).";
export const AUTHENTICATION_FAILED_MESSAGE =
  "We are unable to authenticate your payment method. Please choose a different payment method and try again.";

type CardBehaviour = "ok" | "declined" | "authenticate" | "fails_renewal";

type SandboxCard = CardSummary & { behaviour: CardBehaviour };

type Customer = {
  id: string;
  email: string;
  name: string | null;
  metadata: Record<string, string>;
  card: SandboxCard | null;
};

type Intent = {
  id: string;
  object: "payment_intent" | "setup_intent";
  status: IntentStatus;
  clientSecret: string;
  amount: number;
  currency: string;
  customer: string | null;
  description: string;
  metadata: Record<string, string>;
  lastError: string | null;
  /** The invoice this intent pays, for a subscription's payments. */
  invoice: string | null;
  card: SandboxCard | null;
};

type Subscription = {
  id: string;
  customer: string;
  plan: PricedPlan;
  coupon: ProviderCoupon | null;
  couponPaymentsLeft: number | null;
  status: SubscriptionStatus;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  endedAt: string | null;
  latestInvoice: string | null;
  metadata: Record<string, string>;
};

type Invoice = {
  id: string;
  subscription: string;
  customer: string;
  amount: number;
  subtotal: number;
  currency: string;
  periodStart: string;
  periodEnd: string;
  billingReason: string;
  status: "open" | "paid" | "uncollectible";
  paymentIntent: string | null;
  metadata: Record<string, string>;
};

type StoredEvent = { event: PaymentEvent; delivered: boolean };

const newId = (prefix: string) => `${prefix}_sb_${randomBytes(12).toString("base64url")}`;

// Event ids sort in the order the events happened, as a provider's deliveries are ordered.
let eventSequence = 0;
const newEventId = () =>
  `evt_sb_${Date.now().toString(36).padStart(9, "0")}${(eventSequence++ % 1_000_000).toString().padStart(6, "0")}_${randomBytes(6).toString("base64url")}`;

function cardFrom(number: string, expiry: string): SandboxCard | { refused: string } {
  const digits = number.replace(/[\s-]/g, "");
  const behaviours: Record<string, CardBehaviour> = {
    [SANDBOX_CARDS.success]: "ok",
    [SANDBOX_CARDS.declined]: "declined",
    [SANDBOX_CARDS.authenticate]: "authenticate",
    [SANDBOX_CARDS.failsRenewal]: "fails_renewal",
  };
  const behaviour = behaviours[digits];
  if (!behaviour) return { refused: UNKNOWN_CARD_MESSAGE };
  const [month, year] = expiry.split("/").map((part) => Number(part.trim()));
  return { brand: "visa", last4: digits.slice(-4), expMonth: month!, expYear: 2000 + year!, behaviour };
}

const publicCard = (card: SandboxCard | null) => (card ? { brand: card.brand, last4: card.last4 } : null);

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const dateOf = (value: string | null) => (value ? new Date(value) : null);

export function sandboxPayments(db: Database): SandboxPayments {
  type Tx = SandboxTx;

  async function emit(store: SandboxStore, event: PaymentEvent): Promise<void> {
    await writeObject(store, event.id, "event", { event, delivered: false } satisfies StoredEvent);
  }

  const event = <E extends Omit<PaymentEvent, "id" | "provider" | "occurredAt">>(body: E, now: Date) =>
    ({ ...body, id: newEventId(), provider: "sandbox", occurredAt: now }) as unknown as PaymentEvent;

  /** Replays the answer of an earlier call with the same idempotency key, as a provider does. */
  async function once<T extends object>(key: string, make: (tx: Tx) => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      const earlier = await readLockedObject<T>(tx, `sandbox:${key}`, `idem_${key}`, "idempotency");
      if (earlier) return earlier;
      const made = await make(tx);
      await writeObject(tx, `idem_${key}`, "idempotency", made);
      return made;
    });
  }

  function subscriptionData(subscription: Subscription): SubscriptionData {
    return {
      ref: subscription.id,
      customerRef: subscription.customer,
      status: subscription.status,
      currentPeriodStart: dateOf(subscription.currentPeriodStart),
      currentPeriodEnd: dateOf(subscription.currentPeriodEnd),
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      canceledAt: dateOf(subscription.canceledAt),
      endedAt: dateOf(subscription.endedAt),
      planId: subscription.plan.id,
      metadata: subscription.metadata,
    };
  }

  async function saveSubscription(
    store: SandboxStore,
    subscription: Subscription,
    type: "subscription.created" | "subscription.updated" | "subscription.deleted",
    now: Date,
  ) {
    await writeObject(store, subscription.id, "subscription", subscription);
    await emit(
      store,
      event({ type, providerType: `customer.${type}`, subscription: subscriptionData(subscription) }, now),
    );
  }

  function invoiceEvent(
    invoice: Invoice,
    type: "invoice.paid" | "invoice.payment_failed",
    card: SandboxCard | null,
    failure: string | null,
    now: Date,
  ) {
    return event(
      {
        type,
        providerType: type,
        invoice: {
          ref: invoice.id,
          subscriptionRef: invoice.subscription,
          customerRef: invoice.customer,
          amountCents: invoice.amount,
          subtotalCents: invoice.subtotal,
          currency: invoice.currency,
          periodStart: new Date(invoice.periodStart),
          periodEnd: new Date(invoice.periodEnd),
          billingReason: invoice.billingReason,
          failureMessage: failure,
          card: publicCard(card),
          metadata: invoice.metadata,
        },
      },
      now,
    );
  }

  /** The charge of an intent with a card, and everything it settles. */
  async function settle(tx: Tx, intent: Intent, card: SandboxCard, now: Date): Promise<Intent> {
    intent.card = card;
    if (card.behaviour === "declined") {
      intent.status = "requires_payment_method";
      intent.lastError = DECLINED_MESSAGE;
    } else {
      intent.status = "succeeded";
      intent.lastError = null;
    }
    await writeObject(tx, intent.id, intent.object, intent);
    if (intent.customer && intent.status === "succeeded") {
      const customer = await readObject<Customer>(tx, intent.customer, "customer");
      if (customer) await writeObject(tx, customer.id, "customer", { ...customer, card });
    }
    if (intent.object === "setup_intent") {
      if (intent.status === "succeeded" && intent.customer) {
        await emit(
          tx,
          event(
            {
              type: "card.updated",
              providerType: "setup_intent.succeeded",
              card: {
                customerRef: intent.customer,
                paymentMethodRef: null,
                card: publicCardSummary(card),
                metadata: intent.metadata,
              },
            },
            now,
          ),
        );
      }
      return intent;
    }
    if (intent.invoice) {
      const invoice = (await readObject<Invoice>(tx, intent.invoice, "invoice"))!;
      const subscription = (await readObject<Subscription>(tx, invoice.subscription, "subscription"))!;
      if (intent.status === "succeeded") {
        await writeObject(tx, invoice.id, "invoice", { ...invoice, status: "paid" });
        await emit(tx, invoiceEvent(invoice, "invoice.paid", card, null, now));
        await saveSubscription(tx, { ...subscription, status: "ACTIVE" }, "subscription.updated", now);
      } else {
        await emit(tx, invoiceEvent(invoice, "invoice.payment_failed", card, intent.lastError, now));
      }
      return intent;
    }
    const payment = {
      ref: intent.id,
      customerRef: intent.customer,
      amountCents: intent.amount,
      currency: intent.currency,
      failureMessage: intent.lastError,
      card: publicCard(card),
      metadata: intent.metadata,
    };
    const type = intent.status === "succeeded" ? "payment.succeeded" : "payment.failed";
    await emit(
      tx,
      event(
        {
          type,
          providerType: type === "payment.succeeded" ? "payment_intent.succeeded" : "payment_intent.payment_failed",
          payment,
        },
        now,
      ),
    );
    return intent;
  }

  function publicCardSummary(card: SandboxCard): CardSummary {
    return { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  }

  async function intentBySecret(store: SandboxStore, clientSecret: string): Promise<Intent | null> {
    const id = clientSecret.split("_secret_")[0] ?? "";
    const type = id.startsWith("seti_") ? "setup_intent" : "payment_intent";
    const intent = await readObject<Intent>(store, id, type);
    return intent && intent.clientSecret === clientSecret ? intent : null;
  }

  /** Charges one period of a subscription with the card on file. */
  async function renew(tx: Tx, subscription: Subscription, now: Date): Promise<void> {
    if (subscription.cancelAtPeriodEnd) {
      await saveSubscription(
        tx,
        { ...subscription, status: "CANCELED", canceledAt: iso(now), endedAt: iso(now) },
        "subscription.deleted",
        now,
      );
      return;
    }
    const interval = subscription.plan.interval ?? "month";
    const start = dateOf(subscription.currentPeriodEnd) ?? now;
    const end = addInterval(start, interval);
    const couponLeft = subscription.couponPaymentsLeft;
    const amount = renewalAmount(subscription.plan.amountCents, subscription.coupon, couponLeft);
    const invoice: Invoice = {
      id: newId("in"),
      subscription: subscription.id,
      customer: subscription.customer,
      amount,
      subtotal: subscription.plan.amountCents,
      currency: subscription.plan.currency,
      periodStart: start.toISOString(),
      periodEnd: end.toISOString(),
      billingReason: "subscription_cycle",
      status: "open",
      paymentIntent: null,
      metadata: subscription.metadata,
    };
    const customer = await readObject<Customer>(tx, subscription.customer, "customer");
    const card = customer?.card ?? null;
    const charged = card !== null && card.behaviour !== "fails_renewal" && card.behaviour !== "declined";
    const couponPaymentsLeft = couponLeft === null || !subscription.coupon ? couponLeft : Math.max(0, couponLeft - 1);
    if (charged || amount === 0) {
      await writeObject(tx, invoice.id, "invoice", { ...invoice, status: "paid" });
      await emit(tx, invoiceEvent(invoice, "invoice.paid", card, null, now));
      await saveSubscription(
        tx,
        {
          ...subscription,
          status: "ACTIVE",
          currentPeriodStart: invoice.periodStart,
          currentPeriodEnd: invoice.periodEnd,
          latestInvoice: invoice.id,
          couponPaymentsLeft,
        },
        "subscription.updated",
        now,
      );
    } else {
      await writeObject(tx, invoice.id, "invoice", invoice);
      await emit(
        tx,
        invoiceEvent(invoice, "invoice.payment_failed", card, card ? DECLINED_MESSAGE : "No card on file.", now),
      );
      if (subscription.status !== "PAST_DUE") {
        await saveSubscription(
          tx,
          { ...subscription, status: "PAST_DUE", latestInvoice: invoice.id },
          "subscription.updated",
          now,
        );
      }
    }
  }

  const provider: SandboxPayments = {
    name: "sandbox",
    client: { kind: "sandbox" },
    couponsLink: "/coupon/discounts#coupons",

    async createCustomer(input, idempotencyKey) {
      return once(`customer:${idempotencyKey}`, async (tx) => {
        const customer: Customer = {
          id: newId("cus"),
          email: input.email,
          name: input.name,
          metadata: input.userId ? { user_id: input.userId } : {},
          card: null,
        };
        await writeObject(tx, customer.id, "customer", customer);
        return { customerRef: customer.id };
      });
    },

    async deleteCustomer(customerRef) {
      await db
        .delete(sandboxObjects)
        .where(and(eq(sandboxObjects.id, customerRef), eq(sandboxObjects.type, "customer")));
    },

    async refundPayment({ intentRef, amountCents, idempotencyKey }) {
      return once(`refund:${idempotencyKey}`, async (tx) => {
        const intent = await readObject<Intent & { amountRefunded?: number }>(tx, intentRef, "payment_intent");
        if (!intent || intent.status !== "succeeded") throw new Error(`No succeeded payment ${intentRef} to refund`);
        const refunded = (intent.amountRefunded ?? 0) + amountCents;
        if (amountCents <= 0 || refunded > intent.amount)
          throw new Error(`A refund of ${amountCents} exceeds what is left of ${intentRef}`);
        await writeObject(tx, intent.id, "payment_intent", { ...intent, amountRefunded: refunded });
        const refund = { paymentRef: intent.id, amountRefundedCents: refunded, currency: intent.currency };
        await emit(tx, event({ type: "charge.refunded", providerType: "charge.refunded", refund }, new Date()));
        return { refundRef: newId("re"), amountCents };
      });
    },

    async startSubscription({ customerRef, plan, coupon, idempotencyKey, metadata }) {
      const made = await once(`subscription:${idempotencyKey}`, async (tx) => {
        const now = new Date();
        const customer = await readObject<Customer>(tx, customerRef, "customer");
        if (!customer) throw new Error(`No such customer: ${customerRef}`);
        const interval = plan.interval ?? "month";
        const amount = coupon
          ? applyCoupon(plan.amountCents, { amount_off: coupon.amountOff, percent_off: coupon.percentOff })
          : plan.amountCents;
        const couponPaymentsTotal = coupon ? couponPayments(coupon, interval) : null;
        const subscription: Subscription = {
          id: newId("sub"),
          customer: customerRef,
          plan,
          coupon,
          couponPaymentsLeft: couponPaymentsTotal === null ? null : couponPaymentsTotal - 1,
          status: amount === 0 ? "ACTIVE" : "INCOMPLETE",
          currentPeriodStart: now.toISOString(),
          currentPeriodEnd: addInterval(now, interval).toISOString(),
          cancelAtPeriodEnd: false,
          canceledAt: null,
          endedAt: null,
          latestInvoice: null,
          metadata,
        };
        const invoice: Invoice = {
          id: newId("in"),
          subscription: subscription.id,
          customer: customerRef,
          amount,
          subtotal: plan.amountCents,
          currency: plan.currency,
          periodStart: subscription.currentPeriodStart!,
          periodEnd: subscription.currentPeriodEnd!,
          billingReason: "subscription_create",
          status: amount === 0 ? "paid" : "open",
          paymentIntent: null,
          metadata,
        };
        subscription.latestInvoice = invoice.id;
        let clientSecret: string | null = null;
        if (amount > 0) {
          const intent: Intent = {
            id: newId("pi"),
            object: "payment_intent",
            status: "requires_payment_method",
            clientSecret: "",
            amount,
            currency: plan.currency,
            customer: customerRef,
            description: `${plan.title} subscription`,
            metadata,
            lastError: null,
            invoice: invoice.id,
            card: null,
          };
          intent.clientSecret = `${intent.id}_secret_${randomBytes(12).toString("base64url")}`;
          clientSecret = intent.clientSecret;
          invoice.paymentIntent = intent.id;
          await writeObject(tx, intent.id, "payment_intent", intent);
        }
        await writeObject(tx, invoice.id, "invoice", invoice);
        await saveSubscription(tx, subscription, "subscription.created", now);
        if (amount === 0) await emit(tx, invoiceEvent(invoice, "invoice.paid", null, null, now));
        return {
          subscriptionRef: subscription.id,
          status: subscription.status,
          clientSecret,
          currentPeriodStart: subscription.currentPeriodStart,
          currentPeriodEnd: subscription.currentPeriodEnd,
          amountDueCents: amount,
        };
      });
      return {
        ...made,
        currentPeriodStart: dateOf(made.currentPeriodStart),
        currentPeriodEnd: dateOf(made.currentPeriodEnd),
      };
    },

    async startPayment({ customerRef, amountCents, currency, description, idempotencyKey, metadata }) {
      return once<StartedIntent>(`payment:${idempotencyKey}`, async (tx) => {
        const intent: Intent = {
          id: newId("pi"),
          object: "payment_intent",
          status: "requires_payment_method",
          clientSecret: "",
          amount: amountCents,
          currency,
          customer: customerRef,
          description,
          metadata,
          lastError: null,
          invoice: null,
          card: null,
        };
        intent.clientSecret = `${intent.id}_secret_${randomBytes(12).toString("base64url")}`;
        await writeObject(tx, intent.id, "payment_intent", intent);
        return { intentRef: intent.id, clientSecret: intent.clientSecret, status: intent.status };
      });
    },

    async readIntent(intentRef) {
      const type = intentRef.startsWith("seti_") ? "setup_intent" : "payment_intent";
      const intent = await readObject<Intent>(db, intentRef, type);
      if (!intent) throw new PaymentDeclined("This payment could not be found.");
      return {
        status: intent.status,
        amountCents: intent.amount,
        currency: intent.currency,
        failureMessage: intent.lastError,
        metadata: intent.metadata,
      };
    },

    async cancelSubscription(subscriptionRef, { atPeriodEnd }) {
      return db.transaction(async (tx) => {
        const now = new Date();
        const subscription = await readObject<Subscription>(tx, subscriptionRef, "subscription");
        if (!subscription) throw new PaymentDeclined("This subscription could not be found.");
        const next: Subscription = atPeriodEnd
          ? { ...subscription, cancelAtPeriodEnd: true, canceledAt: iso(now) }
          : { ...subscription, status: "CANCELED", canceledAt: iso(now), endedAt: iso(now) };
        await saveSubscription(tx, next, atPeriodEnd ? "subscription.updated" : "subscription.deleted", now);
        return subscriptionData(next);
      });
    },

    async resumeSubscription(subscriptionRef) {
      return db.transaction(async (tx) => {
        const subscription = await readObject<Subscription>(tx, subscriptionRef, "subscription");
        if (!subscription || subscription.status === "CANCELED") {
          throw new PaymentDeclined("This subscription has ended and cannot be resumed.");
        }
        const next = { ...subscription, cancelAtPeriodEnd: false, canceledAt: null };
        await saveSubscription(tx, next, "subscription.updated", new Date());
        return subscriptionData(next);
      });
    },

    async changePlan(subscriptionRef, plan, idempotencyKey) {
      const changed = await once(`change:${idempotencyKey}`, async (tx) => {
        const subscription = await readObject<Subscription>(tx, subscriptionRef, "subscription");
        if (!subscription || subscription.status === "CANCELED") {
          throw new PaymentDeclined("This subscription has ended: start a new one.");
        }
        const next = { ...subscription, plan };
        await saveSubscription(tx, next, "subscription.updated", new Date());
        return { id: next.id };
      });
      return subscriptionData((await readObject<Subscription>(db, changed.id, "subscription"))!);
    },

    async startCardUpdate(customerRef, idempotencyKey, metadata) {
      return once<StartedIntent>(`setup:${idempotencyKey}`, async (tx) => {
        const intent: Intent = {
          id: newId("seti"),
          object: "setup_intent",
          status: "requires_payment_method",
          clientSecret: "",
          amount: 0,
          currency: "usd",
          customer: customerRef,
          description: "Card update",
          metadata,
          lastError: null,
          invoice: null,
          card: null,
        };
        intent.clientSecret = `${intent.id}_secret_${randomBytes(12).toString("base64url")}`;
        await writeObject(tx, intent.id, "setup_intent", intent);
        return { intentRef: intent.id, clientSecret: intent.clientSecret, status: intent.status };
      });
    },

    async readCard(customerRef) {
      const customer = await readObject<Customer>(db, customerRef, "customer");
      return customer?.card ? publicCardSummary(customer.card) : null;
    },

    async setDefaultCard(customerRef) {
      // The sandbox keeps one card per customer: the last one confirmed is the default.
      return provider.readCard(customerRef);
    },

    readWebhook() {
      throw new InvalidWebhookSignature("The sandbox sends no webhooks");
    },

    async confirmCard(clientSecret, input, now = new Date()) {
      return db.transaction(async (tx) => {
        const intent = await intentBySecret(tx, clientSecret);
        if (!intent) throw new PaymentDeclined("This payment could not be found: start again.");
        const current = (await readLockedObject<Intent>(tx, `sandbox:${intent.id}`, intent.id, intent.object))!;
        // A second submit of a confirmed payment (a double click) charges nothing more.
        if (current.status === "succeeded" || current.status === "processing" || current.status === "canceled") {
          return { intentRef: current.id, status: current.status, failureMessage: current.lastError };
        }
        const card = cardFrom(input.number, input.expiry);
        if ("refused" in card) return { intentRef: current.id, status: current.status, failureMessage: card.refused };
        if (!cardNotExpired(input.expiry, now)) {
          return { intentRef: current.id, status: current.status, failureMessage: EXPIRED_MESSAGE };
        }
        if (card.behaviour === "authenticate") {
          const waiting = { ...current, status: "requires_action" as const, card, lastError: null };
          await writeObject(tx, current.id, current.object, waiting);
          return { intentRef: current.id, status: waiting.status, failureMessage: null };
        }
        const settled = await settle(tx, current, card, now);
        return { intentRef: settled.id, status: settled.status, failureMessage: settled.lastError };
      });
    },

    async authenticate(intentRef, approve) {
      return db.transaction(async (tx) => {
        const type = intentRef.startsWith("seti_") ? "setup_intent" : "payment_intent";
        const intent = await readObject<Intent>(tx, intentRef, type);
        if (!intent) throw new PaymentDeclined("This payment could not be found: start again.");
        if (intent.status !== "requires_action" || !intent.card) {
          return { status: intent.status, failureMessage: intent.lastError };
        }
        if (!approve) {
          const failed = {
            ...intent,
            status: "requires_payment_method" as const,
            lastError: AUTHENTICATION_FAILED_MESSAGE,
          };
          await writeObject(tx, intent.id, intent.object, failed);
          return { status: failed.status, failureMessage: failed.lastError };
        }
        const settled = await settle(tx, intent, { ...intent.card, behaviour: "ok" }, new Date());
        return { status: settled.status, failureMessage: settled.lastError };
      });
    },

    async readIntentSummary(intentRef) {
      const type = intentRef.startsWith("seti_") ? "setup_intent" : "payment_intent";
      const intent = await readObject<Intent>(db, intentRef, type);
      return intent
        ? {
            amountCents: intent.amount,
            currency: intent.currency,
            status: intent.status,
            description: intent.description,
          }
        : null;
    },

    async intentForSecret(clientSecret) {
      const intent = await intentBySecret(db, clientSecret);
      return intent
        ? {
            intentRef: intent.id,
            object: intent.object,
            amountCents: intent.amount,
            currency: intent.currency,
            description: intent.description,
            status: intent.status,
          }
        : null;
    },

    async renewDue(now, onlySubscriptionRef) {
      const due = await db
        .select({ id: sandboxObjects.id })
        .from(sandboxObjects)
        .where(
          and(
            eq(sandboxObjects.type, "subscription"),
            onlySubscriptionRef
              ? eq(sandboxObjects.id, onlySubscriptionRef)
              : sql`${sandboxObjects.data}->>'status' in ('ACTIVE', 'PAST_DUE') and (${sandboxObjects.data}->>'currentPeriodEnd')::timestamptz <= ${now.toISOString()}::timestamptz`,
          ),
        )
        .orderBy(asc(sandboxObjects.createdAt))
        .limit(500);
      let renewed = 0;
      for (const { id } of due) {
        await db.transaction(async (tx) => {
          const subscription = await readLockedObject<Subscription>(tx, `sandbox:${id}`, id, "subscription");
          if (!subscription || (subscription.status !== "ACTIVE" && subscription.status !== "PAST_DUE")) return;
          // A sweep that races another server's finds the period already moved on.
          const end = dateOf(subscription.currentPeriodEnd);
          if (!onlySubscriptionRef && end && end > now) return;
          await renew(tx, subscription, now);
          renewed += 1;
        });
      }
      return renewed;
    },

    ...sandboxEventFeed(db, "event", reviveEvent),
  };
  return provider;
}

/**
 * The sandbox's side of a subscription that exists from the start (the demo's members): a
 * customer with the 4242 card on file and its monthly subscription, as rows to insert.
 */
export function sandboxSubscriptionRecords(input: {
  customerRef: string;
  subscriptionRef: string;
  email: string;
  name: string | null;
  userId: string;
  plan: PricedPlan;
  start: Date;
  end: Date;
}): { id: string; type: string; data: Record<string, unknown> }[] {
  const card: SandboxCard = { brand: "visa", last4: "4242", expMonth: 12, expYear: 2039, behaviour: "ok" };
  const customer: Customer = {
    id: input.customerRef,
    email: input.email,
    name: input.name,
    metadata: { user_id: input.userId },
    card,
  };
  const subscription: Subscription = {
    id: input.subscriptionRef,
    customer: input.customerRef,
    plan: input.plan,
    coupon: null,
    couponPaymentsLeft: null,
    status: "ACTIVE",
    currentPeriodStart: input.start.toISOString(),
    currentPeriodEnd: input.end.toISOString(),
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: null,
    latestInvoice: null,
    metadata: { user_id: input.userId, plan_id: input.plan.id },
  };
  return [
    { id: customer.id, type: "customer", data: customer },
    { id: subscription.id, type: "subscription", data: subscription },
  ];
}

const DATE_FIELDS = [
  "occurredAt",
  "currentPeriodStart",
  "currentPeriodEnd",
  "canceledAt",
  "endedAt",
  "periodStart",
  "periodEnd",
];

/** An event read back from JSON: its dates are dates again. */
function reviveEvent(stored: PaymentEvent): PaymentEvent {
  const revive = (value: unknown): unknown => {
    if (Array.isArray(value) || value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        DATE_FIELDS.includes(key) && typeof inner === "string" ? new Date(inner) : revive(inner),
      ]),
    );
  };
  return revive(stored) as PaymentEvent;
}
