import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../helpers/standins";
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, TEST_CARDS } from "../mocks/stripe";

/**
 * A subscribed member gives and buys on the shipped server with the Stripe adapter against the
 * stand-in of Stripe's API: each payment is a PaymentIntent of its amount, keyed by our
 * checkout's id, and leaves the membership as it is. A member who deletes their account ends
 * their subscription and customer at Stripe once.
 */

const stripeSigner = new Stripe(STRIPE_SECRET_KEY);
/** A page's text as React renders it, without the markers it puts between adjacent texts. */
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const gist = (text: string) => /<title>([^<]*)<\/title>/.exec(text)?.[1] ?? text.slice(0, 300);

describe("a subscribed member's one-off payments with PAYMENTS=stripe", () => {
  let stripe: StripeStandIn;
  let server: RunningServer;
  let cookie = "";
  let newbie = "";

  const request = (pathname: string, form?: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: form ? "POST" : "GET",
      headers: { cookie, ...(form ? { origin: server.url } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });

  /** The member's /subscription form, as the page serves it: its attempt id, and what it offers. */
  const subscriptionForm = async () => {
    const response = await request("/subscription?_data=routes%2Fsubscription._index");
    const data = (await response.json()) as {
      attempt: string;
      membership: { plan: string } | null;
      plans: { plan: { id: string; kind: string } }[];
    };
    return data;
  };

  const logIn = async (login: string) => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login, password: "memberhall-demo" }),
      redirect: "manual",
    });
    await response.arrayBuffer();
    return response.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
  };

  /** A form the new member (the demo's newbie) posts. */
  const post = (pathname: string, form: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { cookie: newbie, origin: server.url },
      body: new URLSearchParams(form),
      redirect: "manual",
    });

  /** A webhook delivery of the event, signed as Stripe signs it: the server takes it with 200. */
  const deliver = async (event: unknown) => {
    const delivery = JSON.stringify(event);
    const webhook = await fetch(`${server.url}/api/webhooks/stripe`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": stripeSigner.webhooks.generateTestHeaderString({
          payload: delivery,
          secret: STRIPE_WEBHOOK_SECRET,
        }),
      },
      body: delivery,
    });
    expect(webhook.status, await webhook.text()).toBe(200);
  };

  /** The new member subscribes at setup's membership step and pays its first invoice, as Stripe.js would. */
  const subscribe = async () => {
    const profile = await post("/setup/profile", { name: "Nina Newbie", country: "US" });
    await profile.arrayBuffer();
    expect(profile.headers.get("location")).toBe("/setup/membership");
    const step = await fetch(`${server.url}/setup/membership?_data=${encodeURIComponent("routes/setup.($code)")}`, {
      headers: { cookie: newbie },
    });
    const attempt = /"attempt":"([0-9a-f-]{36})"/.exec(await step.text())?.[1];
    if (!attempt) throw new Error("/setup/membership carries no attempt id");
    const chosen = await post("/setup/membership", { attempt, planId: "monthly" });
    const text = await chosen.text();
    expect(chosen.status, gist(text)).toBe(302);
    const [subscription] = [...stripe.subscriptions.values()];
    if (!subscription) throw new Error("Stripe has no subscription");
    const intent = [...stripe.paymentIntents.values()].find((i) => i.customer === subscription.customer)!;
    stripe.confirm(intent.client_secret as string, TEST_CARDS.visa);
    expect(subscription.status).toBe("active");
    const invoice = [...stripe.invoices.values()].find((i) => i.customer === subscription.customer)!;
    // Stripe tells of the active subscription and the paid invoice, which ends setup.
    await deliver(stripe.event("customer.subscription.updated", subscription));
    await deliver(stripe.event("invoice.paid", invoice));
    return { subscriptionId: subscription.id as string, customerId: subscription.customer as string };
  };

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    server = await startServer({ env: stripeEnv(stripe) });
    [cookie, newbie] = await Promise.all([logIn("member"), logIn("newbie")]);
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });

  it("offers the member with a membership a donation and a credit on /subscription", async () => {
    const page = await request("/subscription");
    const html = await pageText(page);
    expect(page.status, gist(html)).toBe(200);
    expect(html).toContain("You have the Supporter membership (active).");
    expect(html).toMatch(/<input[^>]*type="radio"[^>]*value="donation"/);
    expect(html).toMatch(/<input[^>]*type="radio"[^>]*value="notarize-credit"/);
  });

  it("a donation is a PaymentIntent of its amount with our checkout's id as the Idempotency-Key, and no subscription call", async () => {
    const { attempt, membership } = await subscriptionForm();
    expect(membership?.plan).toBe("Supporter membership");
    const before = stripe.calls.length;
    const response = await request("/subscription", { attempt, planId: "donation", amount: "12.34" });
    const text = await response.text();
    expect(response.status, gist(text)).toBe(302);
    expect(response.headers.get("location")).toBe(`/subscription/unsafe/card-plus?checkout=${attempt}`);

    const made = stripe.calls.slice(before);
    const intents = made.filter((c) => c.method === "POST" && c.path === "/v1/payment_intents");
    expect(intents).toHaveLength(1);
    expect(intents[0]!.params).toMatchObject({ amount: "1234", currency: "usd" });
    expect(intents[0]!.idempotencyKey).toBe(attempt);
    expect(made.filter((c) => c.path.startsWith("/v1/subscriptions"))).toEqual([]);

    // The same form sent again is the same payment: no second intent.
    const again = await request("/subscription", { attempt, planId: "donation", amount: "12.34" });
    await again.arrayBuffer();
    expect(stripe.calls.slice(before).filter((c) => c.path === "/v1/payment_intents")).toHaveLength(1);
  });

  it("a notarize credit is a PaymentIntent of the credit's price, and its paid event adds the credit once", async () => {
    const { attempt } = await subscriptionForm();
    const before = stripe.calls.length;
    const response = await request("/subscription", { attempt, planId: "notarize-credit" });
    await response.arrayBuffer();
    expect(response.status).toBe(302);
    const [intent] = stripe.calls.slice(before).filter((c) => c.method === "POST" && c.path === "/v1/payment_intents");
    expect(intent?.params).toMatchObject({ amount: "2500" });
    expect(intent?.idempotencyKey).toBe(attempt);

    const paid = [...stripe.paymentIntents.values()].find(
      (i) => (i.metadata as Record<string, string>).checkout_id === attempt,
    )!;
    const event = stripe.event(
      "payment_intent.succeeded",
      stripe.confirm(paid.client_secret as string, TEST_CARDS.visa),
    );
    // Delivered twice, as Stripe may.
    await deliver(event);
    await deliver(event);
    const billing = await request("/profile/credits");
    const html = await pageText(billing);
    expect(html).toMatch(/You have <strong[^>]*>1 notarize credit<\/strong>/);
  });

  it("cancels the subscription and deletes the customer at Stripe once, however often the form is sent", async () => {
    const { subscriptionId, customerId } = await subscribe();
    const page = await fetch(`${server.url}/subscription`, { headers: { cookie: newbie } });
    expect(await pageText(page)).toContain("You have the Monthly membership (active).");

    const form = { intent: "delete-account", password: "memberhall-demo" };
    // A double click: two posts at once, then the browser's retry once the first has ended the session.
    const answers = await Promise.all([post("/profile/delete", form), post("/profile/delete", form)]);
    const retry = await post("/profile/delete", form);
    for (const response of [...answers, retry]) {
      await response.arrayBuffer();
      expect(response.status).toBe(302);
    }
    expect(answers.map((r) => r.headers.get("location"))).toContain("/");
    expect(retry.headers.get("location")).toMatch(/^\/login/);

    expect(stripe.callsTo("DELETE", `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
    expect(stripe.subscriptions.get(subscriptionId)?.status).toBe("canceled");
    expect(stripe.callsTo("DELETE", `/v1/customers/${customerId}`)).toHaveLength(1);
    expect(stripe.customers.has(customerId)).toBe(false);
  });
});
