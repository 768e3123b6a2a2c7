import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { Field, SelectField, useSchemaForm } from "~/components/forms/fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { PlanFieldset } from "~/components/billing/plan-choices";
import type { SetupPage } from "~/domain/setup";
import { FormCard } from "./card";

type Reply = SubmissionResult<string[]> | undefined;

/** A step's form under the list of steps, the current one marked. */
function StepForm({ data, ...card }: { data: SetupPage } & Omit<Parameters<typeof FormCard>[0], "id" | "before">) {
  const steps = (
    <ol className="steps" aria-label="Setup steps">
      {data.steps.map((s, i) => (
        <li key={s.id} aria-current={s.id === data.step ? "step" : undefined}>
          {i + 1}. {s.title}
        </li>
      ))}
    </ol>
  );
  // Leaving is open at every step: the deletion page is the one page setup does not stand before.
  const leave = (
    <p className="muted">
      Changed your mind? <Link to="/profile/delete">Delete my account</Link>
    </p>
  );
  return <FormCard id="setup-title" before={steps} after={leave} {...card} />;
}

function ProfileStep({ data, lastResult }: { data: SetupPage; lastResult: Reply }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/setup").then((m) => m.profileStepSchema), {
    lastResult,
    defaultValue: { name: data.name, country: data.country },
  });
  return (
    <StepForm
      data={data}
      title="Your details"
      lead="Your country decides which notices you can prepare."
      form={form}
      submit={<SubmitButton pendingText="Saving…">Continue</SubmitButton>}
    >
      <Field meta={fields.name} label="Your name" autoComplete="name" />
      <SelectField meta={fields.country} label="Country">
        <option value="">Choose…</option>
        {data.countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </SelectField>
    </StepForm>
  );
}

function MembershipStep({ data, lastResult }: { data: SetupPage; lastResult: Reply }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/setup").then((m) => m.membershipStepSchema), {
    lastResult,
    defaultValue: { planId: data.chosen ?? data.plans[0]?.plan.id ?? "", attempt: data.attempt },
  });
  const chosen = fields.planId.value ?? fields.planId.initialValue;
  return (
    <StepForm
      data={data}
      title="Membership"
      lead="Choose a subscription, or make a donation. You enter your card on the next page."
      form={form}
      submit={<SubmitButton pendingText="Starting your payment…">Continue to payment</SubmitButton>}
    >
      <PlanFieldset
        legend="Membership"
        coupon={data.coupon}
        attempt={data.attempt}
        fields={fields}
        entries={data.plans}
        chosen={chosen}
      />
      <Field meta={fields.amount} label="Donation amount (USD), for a donation" inputMode="decimal" />
    </StepForm>
  );
}

/** /setup/<step>: the steps so far, and the form of the step to take now. */
export function SetupView({ data, lastResult }: { data: SetupPage; lastResult: Reply }) {
  return data.step === "profile" ? (
    <ProfileStep data={data} lastResult={lastResult} />
  ) : (
    <MembershipStep data={data} lastResult={lastResult} />
  );
}
