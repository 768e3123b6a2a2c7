import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { ExpiredLink } from "~/components/expired-link";
import { Alert } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PASSWORD_MAX, PASSWORD_MIN, resetPasswordSchema } from "~/domain/account";
import { resetPassword } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";
import { redirectWithFlash } from "~/services/session.server";
import { tokenIsLive } from "~/services/tokens.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Set a new password" }];

const ACTIONS = new Set(["reset"]);

function requireKnownAction(action: string | undefined) {
  if (!action || !ACTIONS.has(action)) throw json("This page could not be found", { status: 404 });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireKnownAction(params.action);
  const services = await appServices(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = token.length >= 20 && token.length <= 200 && (await tokenIsLive(services.db, "password_reset", token));
  return json({ token: live ? token : null });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireKnownAction(params.action);
  const services = await appServices(context);
  const form = await readForm(request);
  const parsed = parseForm(resetPasswordSchema, form);
  if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
  const result = await resetPassword(services, parsed.data.token, parsed.data.password);
  if (!result.ok) {
    return formFailure(
      form,
      result.fieldErrors,
      result.expired ? "This link has expired or was already used. Ask for a new one." : undefined,
    );
  }
  return redirectWithFlash(
    "/login",
    { kind: "success", message: "Your password is changed. Log in with the new one." },
    services.config,
  );
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  if (!token) {
    return (
      <ExpiredLink
        explanation="A password link works once, for one hour. Ask for a new one."
        to="/login/help"
        action="Get a new link"
      />
    );
  }
  return (
    <section className="card" aria-labelledby="reset-title">
      <h1 id="reset-title">Set a new password</h1>
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters; a common password is refused.`}
          errors={failure?.fieldErrors.password}
        />
        <Field
          label="New password again"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          errors={failure?.fieldErrors.confirm}
        />
        <div className="actions">
          <SubmitButton pendingText="Saving…">Save the new password</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
