import type { Stripe, StripeElements, StripeError } from "@stripe/stripe-js";

/**
 * Confirming a client secret with Stripe.js, apart from the React form so it can be tested
 * without a browser. Stripe itself leaves the page for `returnUrl` when the confirmation
 * succeeds (or needs the member's bank); what comes back here is always a refusal.
 */

export type ConfirmMode = "payment" | "setup";

const UNEXPECTED = "The card could not be confirmed. Nothing was charged; please try again.";

/**
 * The words to show for Stripe's refusal. Stripe's own message is written for the member for a
 * card error or a field the form flags ("Your card was declined."); others may be technical.
 */
export function confirmErrorMessage(error: Pick<StripeError, "type" | "message">): string {
  const forMember = error.type === "card_error" || error.type === "validation_error";
  return forMember && error.message ? error.message : UNEXPECTED;
}

/** Confirms the Payment Element's card; resolves to the message to show, or null once Stripe leaves the page. */
export async function confirmWithStripe(
  stripe: Pick<Stripe, "confirmPayment" | "confirmSetup">,
  elements: StripeElements,
  { mode, returnUrl }: { mode: ConfirmMode; returnUrl: string },
): Promise<string | null> {
  const confirmParams = { return_url: returnUrl };
  try {
    const result =
      mode === "payment"
        ? await stripe.confirmPayment({ elements, confirmParams })
        : await stripe.confirmSetup({ elements, confirmParams });
    return result.error ? confirmErrorMessage(result.error) : null;
  } catch {
    // Stripe.js could not reach Stripe: the member may try again.
    return UNEXPECTED;
  }
}
