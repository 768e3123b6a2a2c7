import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Alert } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { profileStepSchema } from "~/domain/account";
import { cardSchema } from "~/domain/card";
import { activeSetupSteps, isSetupStep, resumeSetupStep, type SetupStepId } from "~/domain/setup";
import { listCountries, membershipPlans, saveMembershipStep, saveProfileStep } from "~/services/accounts.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";
import { requireViewer, redirectWithFlash } from "~/services/session.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Setup" }];

const membershipSchema = z
  .object({
    planId: z.string({ required_error: "Choose a membership" }).min(1, "Choose a membership").max(64),
    amount: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(
        z
          .string()
          .regex(/^\d{1,5}(\.\d{1,2})?$/, "Enter an amount such as 25 or 25.00")
          .optional(),
      ),
  })
  .and(cardSchema);

async function currentStep(request: Request, context: LoaderFunctionArgs["context"], code: string | undefined) {
  const { viewer, services } = await requireViewer(request, context);
  const ctx = { free: services.config.free };
  if (!viewer.member.needsSetup) throw redirect("/");
  const resume = resumeSetupStep(viewer.member.setupStep, ctx);
  // Steps are taken in order: a later step cannot be reached before the earlier ones.
  if (!code || !isSetupStep(code) || code !== resume) throw redirect(`/setup/${resume}`);
  return { viewer, services, step: code as SetupStepId, steps: activeSetupSteps(ctx) };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services, step, steps } = await currentStep(request, context, params.code);
  return json({
    step,
    steps: steps.map(({ id, title }) => ({ id, title })),
    name: viewer.member.name ?? "",
    country: viewer.member.countryCode ?? "",
    countries: step === "profile" ? await listCountries(services.db) : [],
    plans:
      step === "membership"
        ? (await membershipPlans(services.db)).map((p) => ({
            id: p.id,
            title: p.title,
            kind: p.kind,
            amountCents: p.amountCents,
            currency: p.currency,
            interval: p.interval,
          }))
        : [],
    sandbox: services.config.payments === "sandbox",
  });
}

async function finish(next: SetupStepId | null, config: Parameters<typeof redirectWithFlash>[2]) {
  if (next) return redirect(`/setup/${next}`);
  return redirectWithFlash("/", { kind: "success", message: "Your setup is complete. Welcome!" }, config);
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services, step } = await currentStep(request, context, params.code);
  const form = await readForm(request);
  if (step === "profile") {
    const parsed = parseForm(profileStepSchema, form);
    if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
    const saved = await saveProfileStep(services, viewer, parsed.data);
    if (!saved.ok) return formFailure(form, saved.fieldErrors);
    return finish(saved.next, services.config);
  }
  const parsed = parseForm(membershipSchema, form);
  if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
  const amountCents = parsed.data.amount ? Math.round(Number(parsed.data.amount) * 100) : null;
  const saved = await saveMembershipStep(services, viewer, {
    planId: parsed.data.planId,
    amountCents,
    card: parsed.data,
  });
  if (!saved.ok) return formFailure(form, saved.fieldErrors, saved.formError, saved.formError ? 402 : 400);
  return finish(saved.next, services.config);
}

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);

export default function Setup() {
  const data = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const values = failure?.values ?? {};
  return (
    <section className="card" aria-labelledby="setup-title">
      <ol className="steps" aria-label="Setup steps">
        {data.steps.map((s, i) => (
          <li key={s.id} aria-current={s.id === data.step ? "step" : undefined}>
            {i + 1}. {s.title}
          </li>
        ))}
      </ol>
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      {data.step === "profile" ? (
        <>
          <h1 id="setup-title">Your details</h1>
          <p className="lead">Your country decides which notices you can prepare.</p>
          <Form method="post" className="form" noValidate>
            <Field
              label="Your name"
              name="name"
              autoComplete="name"
              required
              defaultValue={values.name ?? data.name}
              errors={failure?.fieldErrors.name}
            />
            <div className="field">
              <label htmlFor="country">Country</label>
              <select
                id="country"
                name="country"
                required
                defaultValue={values.country ?? data.country}
                aria-invalid={failure?.fieldErrors.country ? true : undefined}
                aria-describedby={failure?.fieldErrors.country ? "country-error" : undefined}
              >
                <option value="">Choose…</option>
                {data.countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
              {failure?.fieldErrors.country ? (
                <p id="country-error" className="field-error">
                  {failure.fieldErrors.country.join(" ")}
                </p>
              ) : null}
            </div>
            <div className="actions">
              <SubmitButton pendingText="Saving…">Continue</SubmitButton>
            </div>
          </Form>
        </>
      ) : (
        <>
          <h1 id="setup-title">Membership</h1>
          <p className="lead">Choose a subscription, or make a donation.</p>
          {data.sandbox ? (
            <Alert kind="warn" title="Sandbox payments">
              No card is charged. Use the test card 4242 4242 4242 4242 with any future expiry date and any CVC.
            </Alert>
          ) : null}
          <Form method="post" className="form" noValidate>
            <fieldset aria-describedby={failure?.fieldErrors.planId ? "plan-error" : undefined}>
              <legend>Membership</legend>
              {data.plans.map((plan) => (
                <div className="choice" key={plan.id}>
                  <input
                    type="radio"
                    id={`plan-${plan.id}`}
                    name="planId"
                    value={plan.id}
                    defaultChecked={(values.planId ?? data.plans[0]?.id) === plan.id}
                  />
                  <label htmlFor={`plan-${plan.id}`}>
                    {plan.title}
                    {plan.amountCents
                      ? ` — ${money(plan.amountCents, plan.currency)} a ${plan.interval}`
                      : " — an amount you choose"}
                  </label>
                </div>
              ))}
              {failure?.fieldErrors.planId ? (
                <p id="plan-error" className="field-error">
                  {failure.fieldErrors.planId.join(" ")}
                </p>
              ) : null}
            </fieldset>
            <Field
              label="Donation amount (USD), for a donation"
              name="amount"
              inputMode="decimal"
              defaultValue={values.amount}
              errors={failure?.fieldErrors.amount}
            />
            <Field
              label="Card number"
              name="cardNumber"
              inputMode="numeric"
              autoComplete="cc-number"
              required
              errors={failure?.fieldErrors.cardNumber}
            />
            <Field
              label="Expiry (MM/YY)"
              name="expiry"
              autoComplete="cc-exp"
              required
              defaultValue={values.expiry}
              errors={failure?.fieldErrors.expiry}
            />
            <Field
              label="Security code (CVC)"
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              required
              errors={failure?.fieldErrors.cvc}
            />
            <div className="actions">
              <SubmitButton pendingText="Paying…">Pay and finish</SubmitButton>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
