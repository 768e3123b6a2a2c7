/** Stripe's Payment Element for the card page (replaced by the full component). */
export function StripeCardForm(props: {
  publishableKey: string;
  clientSecret: string;
  returnUrl: string;
  mode: "payment" | "setup";
  submitLabel: string;
}) {
  return <p role="status">{props.submitLabel}</p>;
}
