import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { describe, expect, it, vi } from "vitest";
import { confirmErrorMessage, confirmWithStripe } from "./stripe-confirm";

const elements = {} as StripeElements;

function fakeStripe(result: unknown) {
  return {
    confirmPayment: vi.fn(async () => result),
    confirmSetup: vi.fn(async () => result),
  } as unknown as Pick<Stripe, "confirmPayment" | "confirmSetup"> & {
    confirmPayment: ReturnType<typeof vi.fn>;
    confirmSetup: ReturnType<typeof vi.fn>;
  };
}

describe("confirming a card with Stripe.js", () => {
  it.each([
    ["payment", "confirmPayment", "confirmSetup"],
    ["setup", "confirmSetup", "confirmPayment"],
  ] as const)("confirms a %s with the return address and shows Stripe's refusal", async (mode, used, unused) => {
    const stripe = fakeStripe({ error: { type: "card_error", message: "Your card was declined." } });
    const message = await confirmWithStripe(stripe, elements, { mode, returnUrl: "https://m.example/done" });
    expect(stripe[used]).toHaveBeenCalledWith({ elements, confirmParams: { return_url: "https://m.example/done" } });
    expect(stripe[unused]).not.toHaveBeenCalled();
    expect(message).toBe("Your card was declined.");
  });

  it("asks the member to try again when Stripe.js fails outright", async () => {
    const stripe = fakeStripe(null);
    stripe.confirmPayment.mockRejectedValue(new TypeError("Failed to fetch"));
    const message = await confirmWithStripe(stripe, elements, { mode: "payment", returnUrl: "https://m.example/done" });
    expect(message).toBe("The card could not be confirmed. Nothing was charged; please try again.");
  });

  it("has nothing to show when Stripe takes the member on", async () => {
    const stripe = fakeStripe({ paymentIntent: { status: "succeeded" } });
    expect(
      await confirmWithStripe(stripe, elements, { mode: "payment", returnUrl: "https://m.example/done" }),
    ).toBeNull();
  });
});

describe("the words for Stripe's refusal", () => {
  it.each([
    ["card_error", "Your card has insufficient funds.", "Your card has insufficient funds."],
    ["validation_error", "Your card's expiration year is in the past.", "Your card's expiration year is in the past."],
    [
      "api_error",
      "An unknown error occurred: req_123",
      "The card could not be confirmed. Nothing was charged; please try again.",
    ],
    [
      "invalid_request_error",
      "No such payment_intent",
      "The card could not be confirmed. Nothing was charged; please try again.",
    ],
    ["card_error", undefined, "The card could not be confirmed. Nothing was charged; please try again."],
  ] as const)("a %s reading %j shows %j", (type, message, shown) => {
    expect(confirmErrorMessage({ type, message })).toBe(shown);
  });
});
