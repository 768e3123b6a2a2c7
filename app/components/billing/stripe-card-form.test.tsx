import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StripeCardForm } from "./stripe-card-form";

describe("the Stripe card form", () => {
  it("renders on the server without Stripe.js, its button waiting for the card field", () => {
    const html = renderToString(
      <StripeCardForm
        publishableKey="pk_test_memberhall"
        clientSecret="pi_1_secret_2"
        returnUrl="https://members.example/billing/return"
        mode="payment"
        submitLabel="Pay 25.00"
      />,
    );
    expect(html).toContain("Loading the secure card form");
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Pay 25.00<\/button>/);
    expect(html).not.toContain("js.stripe.com");
  });
});
