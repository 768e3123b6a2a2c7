import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { DeviceKeyField } from "~/components/device-key-field";
import { Alert } from "~/components/ui/alert";
import { Field, Honeypot } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { loginSchema } from "~/domain/account";
import { safeRedirectPath } from "~/domain/guard";
import { inFrame } from "~/lib/state-client";
import { ipLimit, logIn } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";
import { devicePublicKeySchema } from "~/services/state-header.server";
import { getViewer, siteCookies } from "~/services/session.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Log in" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const viewer = await getViewer(request, services).catch(() => null);
  if (viewer) throw redirect("/redirect-login-success");
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return json({ redirectTo: redirectTo ? safeRedirectPath(redirectTo, "") || null : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const form = await readForm(request);
  const limit = await ipLimit(services, "login", context.clientIp);
  if (!limit.ok) {
    return formFailure(
      form,
      {},
      "Too many login attempts from your network. Wait a minute and try again.",
      429,
      limit.retryAfterSeconds,
    );
  }
  const parsed = parseForm(loginSchema, form);
  if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
  const device = devicePublicKeySchema.safeParse(form.get("devicePublicKey"));
  const result = await logIn(services, parsed.data, {
    ip: context.clientIp,
    userAgent: request.headers.get("user-agent"),
    devicePublicKey: device.success ? device.data.toLowerCase() : null,
  });
  if (!result.ok) {
    return formFailure(form, {}, result.message, result.status, result.retryAfterSeconds);
  }
  const cookies = siteCookies(services.config);
  const headers = new Headers();
  headers.append("Set-Cookie", await cookies.session.serialize(result.sessionId));
  const redirectTo = safeRedirectPath(parsed.data.redirectTo, "");
  if (redirectTo) headers.append("Set-Cookie", await cookies.afterLogin.serialize(redirectTo));
  return redirect("/redirect-login-success", { headers });
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const values = failure?.values ?? {};

  // spec §2.3: the after-login path is also kept in local storage (not inside a frame), so a
  // later visit to /login still goes back there.
  const [target, setTarget] = useState(redirectTo);
  useEffect(() => {
    if (inFrame()) return;
    if (redirectTo) window.localStorage.setItem("afterLogin", redirectTo);
    else setTarget(window.localStorage.getItem("afterLogin"));
  }, [redirectTo]);

  return (
    <section className="card" aria-labelledby="login-title">
      <h1 id="login-title">Log in</h1>
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      <Form method="post" className="form" noValidate>
        <Field
          label="Username or e-mail address"
          name="login"
          autoComplete="username"
          required
          defaultValue={values.login}
          errors={failure?.fieldErrors.login}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          errors={failure?.fieldErrors.password}
        />
        {target ? <input type="hidden" name="redirectTo" value={target} /> : null}
        <DeviceKeyField />
        <Honeypot />
        <div className="actions">
          <SubmitButton pendingText="Logging in…">Log in</SubmitButton>
        </div>
      </Form>
      <p className="muted">
        <Link to="/login/help">Forgot your password?</Link> · New here? <Link to="/signup">Sign up</Link>
      </p>
    </section>
  );
}
