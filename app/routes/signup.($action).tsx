import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DeviceKeyField } from "~/components/device-key-field";
import { ExpiredLink } from "~/components/expired-link";
import { Alert } from "~/components/ui/alert";
import { Field, Honeypot } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { PASSWORD_MAX, PASSWORD_MIN, signupSchema, USERNAME_RULE } from "~/domain/account";
import { ipLimit, resendVerification, signUp, verifyEmail } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";
import { devicePublicKeySchema } from "~/services/state-header.server";
import { getViewer, redirectWithFlash, siteCookies } from "~/services/session.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Sign up" }];

/** /signup (the form), /signup/check-email (after it), /signup/verify?token=… (the e-mailed link). */
const ACTIONS = new Set(["check-email", "verify"]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const viewer = await getViewer(request, services).catch(() => null);
  if (params.action && !ACTIONS.has(params.action)) throw json("This page could not be found", { status: 404 });

  if (params.action === "verify") {
    const token = new URL(request.url).searchParams.get("token") ?? "";
    const verified = token.length >= 20 && token.length <= 200 && (await verifyEmail(services, token));
    if (!verified) return json({ page: "verify-failed" as const, email: viewer?.user.email ?? null, verified: false });
    return redirectWithFlash(
      viewer ? "/setup" : "/login",
      {
        kind: "success",
        message: viewer ? "Your e-mail address is confirmed." : "Your e-mail address is confirmed. Log in to continue.",
      },
      services.config,
    );
  }
  if (params.action === "check-email") {
    if (!viewer) throw redirect("/login");
    return json({
      page: "check-email" as const,
      email: viewer.user.email,
      verified: viewer.user.emailVerifiedAt !== null,
    });
  }
  if (viewer) throw redirect(viewer.member.needsSetup ? "/setup" : "/");
  return json({ page: "form" as const, email: null, verified: false });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const form = await readForm(request);

  if (params.action === "check-email") {
    const viewer = await getViewer(request, services).catch(() => null);
    if (!viewer) throw redirect("/login");
    const resent = await resendVerification(services, viewer.user.id);
    return json({ ok: true as const, resent });
  }
  if (params.action) throw json("This page could not be found", { status: 404 });

  const limit = await ipLimit(services, "signup", context.clientIp);
  if (!limit.ok) {
    return formFailure(
      form,
      {},
      "Too many sign-ups from your network. Wait a minute and try again.",
      429,
      limit.retryAfterSeconds,
    );
  }
  const parsed = parseForm(signupSchema, form);
  if (!parsed.ok) {
    // A filled honeypot is a robot: answer as if all went well and keep nothing.
    if (parsed.fieldErrors.website) return redirect("/signup/check-email");
    return formFailure(form, parsed.fieldErrors);
  }
  const device = devicePublicKeySchema.safeParse(form.get("devicePublicKey"));
  const result = await signUp(services, parsed.data, {
    ip: context.clientIp,
    userAgent: request.headers.get("user-agent"),
    devicePublicKey: device.success ? device.data.toLowerCase() : null,
  });
  if (!result.ok) return formFailure(form, result.fieldErrors);
  return redirect("/signup/check-email", {
    headers: { "Set-Cookie": await siteCookies(services.config).session.serialize(result.sessionId) },
  });
}

function SignupForm() {
  const result = useActionData<typeof action>();
  const failure = result && "fieldErrors" in result ? result : undefined;
  const values = failure?.values ?? {};
  return (
    <section className="card" aria-labelledby="signup-title">
      <h1 id="signup-title">Sign up</h1>
      <p className="lead">
        Create your account. Next you will tell us a little about yourself and choose your membership.
      </p>
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      <Form method="post" className="form" noValidate>
        <Field
          label="Username"
          name="username"
          autoComplete="username"
          required
          minLength={3}
          maxLength={32}
          hint={`${USERNAME_RULE}. It cannot be changed later.`}
          defaultValue={values.username}
          errors={failure?.fieldErrors.username}
        />
        <Field
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={values.email}
          errors={failure?.fieldErrors.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters; a common password is refused.`}
          errors={failure?.fieldErrors.password}
        />
        <div className="field">
          <div className="checkbox">
            <input
              id="acceptTerms"
              type="checkbox"
              name="acceptTerms"
              defaultChecked={values.acceptTerms === "on"}
              aria-invalid={failure?.fieldErrors.acceptTerms ? true : undefined}
              aria-describedby={failure?.fieldErrors.acceptTerms ? "acceptTerms-error" : undefined}
            />
            <label htmlFor="acceptTerms">
              I accept the <Link to="/signup/terms">Terms of Service</Link> and the{" "}
              <Link to="/signup/privacy-policy">Privacy Policy</Link>
            </label>
          </div>
          {failure?.fieldErrors.acceptTerms ? (
            <p id="acceptTerms-error" className="field-error">
              {failure.fieldErrors.acceptTerms.join(" ")}
            </p>
          ) : null}
        </div>
        <DeviceKeyField />
        <Honeypot />
        <div className="actions">
          <SubmitButton pendingText="Creating your account…">Sign up</SubmitButton>
        </div>
      </Form>
      <p className="muted">
        Already a member? <Link to="/login">Log in</Link>
      </p>
    </section>
  );
}

export default function Signup() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (data.page === "form") return <SignupForm />;
  if (data.page === "verify-failed") {
    return (
      <ExpiredLink
        explanation="A confirmation link works once, for 48 hours. Log in and ask for a new one."
        to={data.email ? "/signup/check-email" : "/login"}
        action={data.email ? "Send a new link" : "Log in"}
      />
    );
  }
  return (
    <section className="card" aria-labelledby="check-title">
      <h1 id="check-title">{data.verified ? "Your e-mail address is confirmed" : "Check your e-mail"}</h1>
      {data.verified ? (
        <p>Thank you. Continue with your setup.</p>
      ) : (
        <p>
          We sent a link to <strong>{data.email}</strong>. Open it to confirm your address; meanwhile you can go on with
          your setup.
        </p>
      )}
      {result && "resent" in result ? (
        result.resent ? (
          <Alert kind="success">We sent a new link.</Alert>
        ) : (
          <Alert kind="warn">We have sent several links in the last hour; wait a while before asking again.</Alert>
        )
      ) : null}
      <div className="actions">
        <Link className="button button-primary" to="/setup">
          Continue to setup
        </Link>
        {data.verified ? null : (
          <Form method="post">
            <SubmitButton className="button" pendingText="Sending…">
              Send the link again
            </SubmitButton>
          </Form>
        )}
      </div>
    </section>
  );
}
