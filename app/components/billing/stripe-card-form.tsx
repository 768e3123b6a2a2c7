import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
// The pure entry adds Stripe's script only when loadStripe is called, not when imported.
import { loadStripe } from "@stripe/stripe-js/pure";
import { useCallback, useEffect, useState, type FormEvent } from "react";
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

/** What a member is told when Stripe.js or its card field cannot load (blocked, or no network). */
export const STRIPE_UNAVAILABLE =
  "The secure card form could not load: check that nothing blocks js.stripe.com, then reload. Nothing was charged.";

/** How long the card field may take to appear before the page says it could not load. */
const READY_TIMEOUT_MS = 20_000;

const loaded = new Map<string, Promise<Stripe | null>>();

let reported = false;

/**
 * Says once per page load, to the error reports, that Stripe.js did not load: a blocker or a
 * network that drops js.stripe.com is the member's setting, not a fault of the page, so it is
 * reported as what it is and the page's red bar stays away.
 */
function reportUnavailable(why: string) {
  if (reported) return;
  reported = true;
  void import("~/lib/error-reporting").then(({ reportClientError }) =>
    reportClientError(new Error(`Stripe.js could not load (${why}): the card form was not shown`)),
  );
}

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
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    let live = true;
    const loading = stripeFor(publishableKey);
    const fail = (why: string) => {
      reportUnavailable(why);
      if (live) setUnavailable(true);
    };
    loading.then(
      (found) => (found ? undefined : fail("no Stripe object")),
      (error: unknown) => fail(error instanceof Error ? error.message : String(error)),
    );
    // Elements is handed a promise that never rejects: the failure is said here instead.
    setStripe(loading.catch(() => null));
    return () => {
      live = false;
    };
  }, [publishableKey]);
  const cardFieldFailed = useCallback((why: string) => {
    reportUnavailable(why);
    setUnavailable(true);
  }, []);
  if (unavailable) return <StripeUnavailable />;
  return (
    // Elements keeps its first secret: a new intent needs new Elements.
    <Elements key={clientSecret} stripe={stripe} options={{ clientSecret }}>
      <CardForm {...form} onUnavailable={cardFieldFailed} />
    </Elements>
  );
}

/** Why the card form is missing, what to do, and the reload that tries again. */
function StripeUnavailable() {
  return (
    <div className="stack">
      <Alert kind="error" title="The card form could not load">
        {STRIPE_UNAVAILABLE}
      </Alert>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </p>
    </div>
  );
}

function CardForm({
  returnUrl,
  mode,
  submitLabel,
  onUnavailable,
}: Pick<StripeCardFormProps, "returnUrl" | "mode" | "submitLabel"> & { onUnavailable: (why: string) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Stripe.js may load and its card field still not (its frame blocked, a network that hangs).
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => onUnavailable("the card field did not appear"), READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [ready, onUnavailable]);

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
      <PaymentElement
        onReady={() => setReady(true)}
        onLoadError={() => onUnavailable("the card field failed to load")}
      />
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
