import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { Field, Honeypot } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { resetRequestSchema } from "~/domain/account";
import { ipLimit, requestPasswordReset } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Login help" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const form = await readForm(request);
  const limit = await ipLimit(services, "reset", context.clientIp);
  if (!limit.ok) {
    return formFailure(
      form,
      {},
      "Too many requests from your network. Wait a minute and try again.",
      429,
      limit.retryAfterSeconds,
    );
  }
  const parsed = parseForm(resetRequestSchema, form);
  if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
  await requestPasswordReset(services, parsed.data.email);
  // The same answer whether or not an account uses the address: it tells an outsider nothing.
  return json({ ok: true as const, email: parsed.data.email });
}

export default function LoginHelp() {
  const result = useActionData<typeof action>();
  if (result?.ok) {
    return (
      <section className="card" aria-labelledby="help-title">
        <h1 id="help-title">Check your e-mail</h1>
        <p>
          If an account uses <strong>{result.email}</strong>, we have sent it a link to set a new password. The link
          works once, for one hour.
        </p>
        <p>
          <Link to="/login">Back to login</Link>
        </p>
      </section>
    );
  }
  const failure = result && !result.ok ? result : undefined;
  return (
    <section className="card" aria-labelledby="help-title">
      <h1 id="help-title">Login help</h1>
      <p className="lead">
        Enter the e-mail address of your account and we will send you a link to set a new password.
      </p>
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      <Form method="post" className="form" noValidate>
        <Field
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={failure?.values.email}
          errors={failure?.fieldErrors.email}
        />
        <Honeypot />
        <div className="actions">
          <SubmitButton pendingText="Sending…">Send the link</SubmitButton>
        </div>
      </Form>
      <p className="muted">
        <Link to="/login">Back to login</Link>
      </p>
    </section>
  );
}
