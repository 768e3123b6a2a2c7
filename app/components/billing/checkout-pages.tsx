import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState, type ComponentProps } from "react";
import { Field, useSchemaForm } from "~/components/forms/fields";
import { Card, FormCard } from "~/components/identity/card";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { CreatorOfferNote } from "./creator-offer";
import { PlanFieldset } from "./plan-choices";
import type { AuthenticatePage, CardPage, CheckoutSummary, ReturnPage } from "~/services/billing/pages.server";
import type { SubscriptionPageData } from "~/services/billing/subscription-page.server";
import { formatMoney } from "~/lib/format";
import { membershipIs } from "~/domain/membership-is";

type Reply = SubmissionResult<string[]> | undefined;

// Stripe's own card element, loaded only on the card page and only with Stripe configured.
const StripeCardForm = lazy(() => import("./stripe-card-form").then((module) => ({ default: module.StripeCardForm })));

/** /subscription: the plans with their prices (the offer in force applied), a donation, then pay. */
export function SubscriptionView({ data, lastResult }: { data: SubscriptionPageData; lastResult: Reply }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/checkout-form").then((m) => m.checkoutFormSchema), {
    lastResult,
    defaultValue: {
      planId:
        data.chosen ??
        (data.membership ? data.plans.find((entry) => entry.plan.kind !== "subscription") : data.plans[0])?.plan.id ??
        "",
      attempt: data.attempt,
      coupon: data.coupon?.slug ?? "",
      email: data.email ?? "",
    },
  });
  const chosen = fields.planId.value ?? fields.planId.initialValue;
  // A member with a membership may still give a donation or buy a notarize credit at any time.
  const offered = data.membership ? data.plans.filter((entry) => entry.plan.kind !== "subscription") : data.plans;
  const lead = data.membership ? (
    <>
      You have the {data.membership.plan} ({membershipIs(data.membership.status)}). Change your plan, your card or
      cancel from <Link to="/profile/billing">your profile</Link>. You can also give a donation or buy a notarize
      credit; your membership stays as it is.
    </>
  ) : data.complimentaryNote ? (
    data.complimentaryNote
  ) : (
    "Choose a membership, or give a donation. You enter your card on the next page."
  );
  return (
    <FormCard
      id="subscription-title"
      title="Membership"
      lead={lead}
      // Its upgrade buttons are forms of their own: outside the pay form.
      note={data.membership && data.creatorOffer ? <CreatorOfferNote offer={data.creatorOffer} /> : null}
      form={form}
      submit={<SubmitButton pendingText="Starting your payment…">Continue to payment</SubmitButton>}
    >
      <PlanFieldset
        legend={data.membership ? "Donation or credit" : "Membership"}
        coupon={data.coupon}
        attempt={data.attempt}
        fields={fields}
        entries={offered}
        chosen={chosen}
        needsAccount={(entry) => entry.plan.kind === "subscription" && !data.signedIn}
      />
      <Field
        meta={fields.amount}
        label="Donation amount (USD), for a donation"
        hint={`From ${formatMoney(data.donation.minCents)} to ${formatMoney(data.donation.maxCents)}.`}
        inputMode="decimal"
      />
      <Field meta={fields.coupon} label="Offer code (optional)" autoComplete="off" />
      {data.signedIn ? null : (
        <Field
          meta={fields.email}
          type="email"
          label="Your e-mail, for the receipt"
          hint="Sign up later with the same address and your donation stays with your account."
          autoComplete="email"
        />
      )}
    </FormCard>
  );
}

function SummaryLine({ summary }: { summary: CheckoutSummary }) {
  if (summary.kind === "card") {
    return <p className="lead">The card your membership's payments use from now on. Nothing is charged now.</p>;
  }
  return (
    <p className="lead">
      {summary.what}:{" "}
      {summary.listAmount ? (
        <>
          <s aria-label={`was ${summary.listAmount}`}>{summary.listAmount}</s>{" "}
        </>
      ) : null}
      <strong>{summary.amount}</strong>
      {summary.interval ? ` for the first ${summary.interval}` : null}
    </p>
  );
}

/*
 * The card pages' policy lets the payments provider in (framing.ts). A page they link out to
 * is loaded as a document, so that it runs under its own stricter policy again; from one card
 * page to another the browser may stay.
 */

/** The card page: the sandbox's card form, or Stripe's Payment Element. */
export function CardPageView({
  data,
  lastResult,
  authenticationFailed,
}: {
  data: CardPage;
  lastResult: Reply;
  authenticationFailed: boolean;
}) {
  if (data.done) {
    return (
      <Card id="card-title" title="Payment">
        <SummaryLine summary={data.summary} />
        <p>
          This payment is already done.{" "}
          <Link reloadDocument to="/">
            Go to the home page
          </Link>
          .
        </p>
      </Card>
    );
  }
  const title = data.summary.kind === "card" ? "Your new card" : "Pay by card";
  const failed = authenticationFailed ? (
    <Alert kind="error">The extra confirmation step failed: nothing was charged. Try again or use another card.</Alert>
  ) : null;
  if (data.client.kind === "stripe") {
    return (
      <Card id="card-title" title={title}>
        <SummaryLine summary={data.summary} />
        {failed}
        <StripeCard
          publishableKey={data.client.publishableKey}
          clientSecret={data.clientSecret ?? ""}
          returnUrl={data.returnUrl}
          mode={data.summary.kind === "card" ? "setup" : "payment"}
          submitLabel={data.summary.kind === "card" ? "Save card" : `Pay ${data.summary.amount}`}
        />
      </Card>
    );
  }
  return <SandboxCardForm data={data} lastResult={lastResult} title={title} failed={failed} />;
}

/**
 * Stripe's card form runs in the browser only (its element is Stripe's frame): it is rendered
 * there, once the page is live, so the server's document is whole without waiting for the
 * form's module. Until then, and in a browser without JavaScript, the page says so.
 */
function StripeCard(props: ComponentProps<typeof StripeCardForm>) {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const loading = <p role="status">Loading the card form…</p>;
  if (!live)
    return (
      <>
        {loading}
        <noscript>
          <p>Paying by card needs JavaScript: turn it on in your browser and reload this page.</p>
        </noscript>
      </>
    );
  return (
    <Suspense fallback={loading}>
      <StripeCardForm {...props} />
    </Suspense>
  );
}

function SandboxCardForm({
  data,
  lastResult,
  title,
  failed,
}: {
  data: CardPage;
  lastResult: Reply;
  title: string;
  failed: React.ReactNode;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/checkout-form").then((m) => m.sandboxCardSchema), {
    lastResult,
  });
  return (
    <FormCard
      id="card-title"
      title={title}
      form={form}
      submit={
        <SubmitButton pendingText="Paying…">
          {data.summary.kind === "card" ? "Save card" : `Pay ${data.summary.amount}`}
        </SubmitButton>
      }
    >
      <SummaryLine summary={data.summary} />
      {failed}
      <Alert kind="warn" title="Sandbox payments">
        No card is charged here. Use a test card with any future expiration date and any security code:
        <ul>
          {(data.testCards ?? []).map((card) => (
            <li key={card.number}>
              <code>{card.number}</code>: {card.label}
            </li>
          ))}
        </ul>
      </Alert>
      <Field meta={fields.cardNumber} label="Card number" inputMode="numeric" autoComplete="cc-number" />
      <Field meta={fields.expiry} label="Expiration date" hint="MM / YY" autoComplete="cc-exp" />
      <Field meta={fields.cvc} label="Security code" inputMode="numeric" autoComplete="cc-csc" />
    </FormCard>
  );
}

/** The sandbox's 3-D Secure step, as a bank's page would ask for it. */
export function AuthenticateView({ data }: { data: AuthenticatePage }) {
  return (
    <Card
      id="authenticate-title"
      title="Confirm this payment"
      lead="Sandbox 3-D Secure: your bank asks you to confirm."
    >
      <SummaryLine summary={data.summary} />
      {data.waiting ? (
        <Form method="post" className="actions">
          <SubmitButton name="intent" value="complete" pendingText="Confirming…">
            Complete authentication
          </SubmitButton>
          <SubmitButton name="intent" value="fail" className="button" pendingText="Failing…">
            Fail authentication
          </SubmitButton>
        </Form>
      ) : (
        <p>Nothing is waiting for confirmation here.</p>
      )}
    </Card>
  );
}

/** The return page after a payment: what really happened, from the provider's record. */
export function ReturnView({ data }: { data: ReturnPage }) {
  const { outcome } = data;
  const kind = outcome.status === "succeeded" ? "success" : outcome.status === "failed" ? "error" : "warn";
  return (
    <Card id="return-title" title={outcome.status === "succeeded" ? "Thank you" : "Your payment"}>
      <SummaryLine summary={data.summary} />
      <Alert kind={kind}>{outcome.message}</Alert>
      {outcome.status === "processing" ? <meta httpEquiv="refresh" content="3" /> : null}
      <p className="actions">
        {data.retry ? (
          <Link className="button button-primary" to={data.retry}>
            Try again
          </Link>
        ) : null}
        {data.claimWith ? (
          <Link
            reloadDocument
            className="button button-primary"
            to={`/signup?email=${encodeURIComponent(data.claimWith)}`}
          >
            Continue signup
          </Link>
        ) : data.summary.kind === "card" ? (
          <Link reloadDocument className="button" to="/profile/billing">
            Back to billing and payments
          </Link>
        ) : (
          <Link reloadDocument className="button" to="/">
            Go to the home page
          </Link>
        )}
      </p>
    </Card>
  );
}
