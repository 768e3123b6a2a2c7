import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { FormErrors, formProps, useSchemaForm, useServerForm } from "~/components/forms/fields";
import { ProfileNav } from "~/components/members/profile-card";
import { RadioField } from "~/components/forms/radio-field";
import { Alert } from "~/components/ui/alert";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { FactTable } from "~/components/ui/fact-table";
import { SubmitButton } from "~/components/ui/submit-button";
import type { BillingIntent } from "~/domain/billing-account";
import { cardEnding } from "~/domain/card-words";
import { formatDate, formatMoney } from "~/lib/format";
import type { BillingPage } from "~/services/billing/account.server";
import { Amount, PaymentTable } from "./account-payments";

type Data = SerializeFrom<BillingPage>;
type Membership = NonNullable<Data["membership"]>;
type Reply = SubmissionResult<string[]> | undefined;

/** Where a member buys notarize credits, gives a donation, and sees their credits' history. */
export const CREDITS_PAGE = "/profile/credits";

export const receiptPath = (id: string) => `/profile/billing/receipts/${id}`;

/** An action's answer belongs to the form that sent it: each form shows only its own errors. */
function replyOf(lastResult: Reply, intent: BillingIntent): Reply {
  return lastResult?.initialValue?.intent === intent ? lastResult : undefined;
}

/** /profile/billing: the membership, the card on file, what the member may change, and the payments. */
export function BillingView({ data, lastResult }: { data: Data; lastResult: Reply }) {
  const membership = data.membership;
  const pastDue = membership?.status === "PAST_DUE";
  const updateCard = membership?.actions.updateCard ? (
    <UpdateCardForm attempt={data.attempt} lastResult={replyOf(lastResult, "update-card")} primary={pastDue} />
  ) : null;
  return (
    <section className="card" aria-labelledby="billing-title">
      <ProfileNav current="billing" />
      <h1 id="billing-title">Billing and payments</h1>
      {membership ? null : (
        <>
          <p className="lead">No membership</p>
          <p>
            <Link className="button button-primary" to="/subscription">
              Choose a membership
            </Link>
          </p>
        </>
      )}
      {pastDue ? (
        <>
          <Alert kind="error" title="Your last payment did not go through">
            {membership.pastDueReason} Update your card to keep your membership: we try the payment again with it.
          </Alert>
          {updateCard}
        </>
      ) : null}
      {membership ? <MembershipFacts membership={membership} card={data.card} /> : null}
      {membership?.status === "INCOMPLETE" ? (
        <p className="actions">
          {membership.finishPayment ? (
            // The card page's policy, which lets the payments provider in, comes only with its document.
            <Link reloadDocument className="button button-primary" to={membership.finishPayment}>
              Finish your payment
            </Link>
          ) : null}
          <Link className="button" to="/subscription">
            Choose a membership again
          </Link>
        </p>
      ) : null}
      {membership?.ended ? (
        <p>
          Your membership has ended. <Link to="/subscription">Choose a membership</Link> to join again.
        </p>
      ) : null}
      {pastDue ? null : updateCard}
      {membership?.actions.changePlan && data.plans.length > 0 ? (
        <ChangePlanForm data={data} lastResult={replyOf(lastResult, "change-plan")} />
      ) : null}
      {membership?.actions.resume ? <ResumeForm lastResult={replyOf(lastResult, "resume")} /> : null}
      {membership?.actions.cancel ? (
        <CancelForm membership={membership} lastResult={replyOf(lastResult, "cancel")} />
      ) : null}
      <p>
        <Link to={CREDITS_PAGE}>Notarize credits and donations</Link>
      </p>
      <h2>Payments</h2>
      <PaymentTable payments={data.payments} receiptPath={receiptPath} />
    </section>
  );
}

function nextPayment(m: Membership): ReactNode {
  if (m.endsOn) return `Ends on ${formatDate(m.endsOn)}`;
  if (!m.renewsOn) return "—";
  return (
    <>
      {formatDate(m.renewsOn)}:{" "}
      {m.amountCents !== null ? (
        <Amount cents={m.amountCents} listCents={m.listAmountCents} currency={m.currency} />
      ) : null}
    </>
  );
}

function MembershipFacts({ membership: m, card }: { membership: Membership; card: Data["card"] }) {
  return (
    <FactTable
      facts={[
        ["Plan", m.plan],
        ["Status", m.statusText],
        [m.endsOn ? "Membership" : "Next payment", nextPayment(m)],
        [
          "Card on file",
          card
            ? `${cardEnding(card.brand, card.last4)}${card.expMonth && card.expYear ? `, expires ${String(card.expMonth).padStart(2, "0")}/${card.expYear}` : ""}`
            : "None",
        ],
      ]}
    />
  );
}

/** A form of one button (and hidden fields), posted to this page, with its own errors above it. */
function ActionForm({
  id,
  label,
  lastResult,
  children,
  hint,
}: {
  id: string;
  label: string;
  lastResult: Reply;
  children: ReactNode;
  hint?: ReactNode;
}) {
  // Its only field is the intent: the action answers it.
  const [form] = useServerForm({ id, lastResult });
  return (
    <Form method="post" className="form" aria-label={label} {...formProps(form)}>
      <FormErrors form={form} />
      {hint}
      <div className="actions">{children}</div>
    </Form>
  );
}

function UpdateCardForm({ attempt, lastResult, primary }: { attempt: string; lastResult: Reply; primary: boolean }) {
  return (
    <ActionForm id="update-card" label="Update your card" lastResult={lastResult}>
      <input type="hidden" name="attempt" value={attempt} />
      <SubmitButton
        name="intent"
        value="update-card"
        className={primary ? "button button-primary" : "button"}
        pendingText="Opening the card form…"
      >
        Update your card
      </SubmitButton>
    </ActionForm>
  );
}

function ChangePlanForm({ data, lastResult }: { data: Data; lastResult: Reply }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/billing-account").then((m) => m.changePlanSchema), {
    id: "change-plan",
    lastResult,
    defaultValue: { intent: "change-plan", attempt: data.attempt, planId: data.plans[0]?.id ?? "" },
  });
  return (
    <Form method="post" className="form" aria-label="Change your plan" {...formProps(form)}>
      <h2>Change your plan</h2>
      <FormErrors form={form} />
      <input type="hidden" name="attempt" value={data.attempt} />
      <RadioField
        meta={fields.planId}
        label="New plan"
        hint="The price difference for the rest of this period is worked out by the day, at your next payment."
        choices={data.plans.map((plan) => ({
          value: plan.id,
          label: `${plan.title} — ${formatMoney(plan.amountCents, plan.currency)}${plan.interval ? ` a ${plan.interval}` : ""}`,
        }))}
      />
      <div className="actions">
        <SubmitButton name="intent" value="change-plan" pendingText="Changing your plan…">
          Change plan
        </SubmitButton>
      </div>
    </Form>
  );
}

function CancelForm({ membership, lastResult }: { membership: Membership; lastResult: Reply }) {
  const until = membership.renewsOn ? formatDate(membership.renewsOn) : "the end of this period";
  return (
    <ActionForm
      id="cancel"
      label="Cancel your membership"
      lastResult={lastResult}
      hint={
        <>
          <h2>Cancel your membership</h2>
          <p className="field-hint">
            You keep your membership until {until}; nothing more is charged. You can resume it until then.
          </p>
        </>
      }
    >
      <ConfirmButton name="intent" value="cancel" confirmText="Click again to confirm">
        Cancel at the end of the period
      </ConfirmButton>
    </ActionForm>
  );
}

function ResumeForm({ lastResult }: { lastResult: Reply }) {
  return (
    <ActionForm id="resume" label="Resume your membership" lastResult={lastResult}>
      <SubmitButton name="intent" value="resume" pendingText="Resuming…">
        Resume your membership
      </SubmitButton>
    </ActionForm>
  );
}
