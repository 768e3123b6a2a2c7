import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";
import { startStripeStandIn, stripeEnv, type StripeStandIn } from "../helpers/standins";
import { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, TEST_CARDS } from "../mocks/stripe";

/**
 * A subscribed member gives and buys on the shipped server with the Stripe adapter against the
 * stand-in of Stripe's API: each payment is a PaymentIntent of its amount, keyed by our
 * checkout's id, and leaves the membership as it is.
 */

const stripeSigner = new Stripe(STRIPE_SECRET_KEY);
/** A page's text as React renders it, without the markers it puts between adjacent texts. */
const pageText = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
const gist = (text: string) => /<title>([^<]*)<\/title>/.exec(text)?.[1] ?? text.slice(0, 300);

describe("a subscribed member's one-off payments with PAYMENTS=stripe", () => {
  let stripe: StripeStandIn;
  let server: RunningServer;
  let cookie = "";

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

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    server = await startServer({ env: stripeEnv(stripe) });
    const login = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "member", password: "memberhall-demo" }),
      redirect: "manual",
    });
    await login.arrayBuffer();
    cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
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
    const delivery = JSON.stringify(
      stripe.event("payment_intent.succeeded", stripe.confirm(paid.client_secret as string, TEST_CARDS.visa)),
    );
    const signature = stripeSigner.webhooks.generateTestHeaderString({
      payload: delivery,
      secret: STRIPE_WEBHOOK_SECRET,
    });
    for (let i = 0; i < 2; i++) {
      const webhook = await fetch(`${server.url}/api/webhooks/stripe`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        body: delivery,
      });
      expect(webhook.status).toBe(200);
      await webhook.arrayBuffer();
    }
    const billing = await request("/profile/credits");
    const html = await pageText(billing);
    expect(html).toMatch(/You have <strong[^>]*>1 notarize credit<\/strong>/);
  });
});
