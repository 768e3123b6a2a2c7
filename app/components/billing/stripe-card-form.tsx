import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
// The pure entry adds Stripe's script only when loadStripe is called, not when imported.
import { loadStripe } from "@stripe/stripe-js/pure";
import { useEffect, useState, type FormEvent } from "react";
import { Alert } from "~/components/ui/alert";
import { confirmWithStripe, type ConfirmMode } from "./stripe-confirm";

export type StripeCardFormProps = {
  publishableKey: string;
  /** The payment intent's, the first invoice's, or the setup intent's secret. */
  clientSecret: string;
  /** Where Stripe sends the member after confirming: the page that reads the intent's outcome. */
  returnUrl: string;
  mode: ConfirmMode;
  submitLabel: string;
};

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js, fetched from js.stripe.com once per page load, by the first form that needs it. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

/** Card entry with Stripe's Payment Element: the card goes from the browser to Stripe, never to us. */
export function StripeCardForm({ publishableKey, clientSecret, ...form }: StripeCardFormProps) {
  // Loaded after hydration: the server render and the first client render stay alike.
  const [stripe, setStripe] = useState<Promise<Stripe | null> | null>(null);
  useEffect(() => setStripe(stripeFor(publishableKey)), [publishableKey]);
  return (
    // Elements keeps its first secret: a new intent needs new Elements.
    <Elements key={clientSecret} stripe={stripe} options={{ clientSecret }}>
      <CardForm {...form} />
    </Elements>
  );
}

function CardForm({ returnUrl, mode, submitLabel }: Pick<StripeCardFormProps, "returnUrl" | "mode" | "submitLabel">) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || confirming) return;
    setConfirming(true);
    setError(null);
    setError(await confirmWithStripe(stripe, elements, { mode, returnUrl }));
    setConfirming(false);
  }

  return (
    <form className="stripe-card-form" onSubmit={confirm} aria-busy={confirming || undefined}>
      {ready ? null : <p role="status">Loading the secure card form…</p>}
      <PaymentElement onReady={() => setReady(true)} />
      {error ? <Alert kind="error">{error}</Alert> : null}
      <button
        type="submit"
        className="button button-primary"
        disabled={!ready || confirming}
        aria-busy={confirming || undefined}
      >
        {confirming ? "Confirming…" : submitLabel}
      </button>
    </form>
  );
}
