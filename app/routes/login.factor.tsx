import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { FactorForm } from "~/components/factors/factor-form";
import { Card } from "~/components/identity/card";
import type { AppServices } from "~/context";
import { isDomainError } from "~/domain/errors";
import { errorJson } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { ipLimit } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { sessionCookies } from "~/services/auth.server";
import { factorOverview } from "~/services/factors/records.server";
import {
  clearPendingLoginCookie,
  finishLogin,
  PENDING_LOGIN_USED_MESSAGE,
  pendingLoginOpen,
  readPendingLogin,
  rememberCookie,
  type PendingLogin,
} from "~/services/factors/sign-in.server";
import { factorFromForm } from "~/services/factors/step-up.server";
import { redirectWithFlash } from "~/services/flash.server";
import { clientMeta } from "~/services/session.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Your second factor" }];

const EXPIRED = "Your sign-in waited too long for its second factor. Log in again.";

/** The sign-in this page finishes; one too old, or finished already, goes back to the login. */
async function standingSignIn(request: Request, services: AppServices): Promise<PendingLogin> {
  const { config } = services;
  const pending = await readPendingLogin(request, config);
  if (!pending) throw await redirectWithFlash("/login", { kind: "warn", message: EXPIRED }, config);
  if (!(await pendingLoginOpen(services.db, pending))) {
    const cleared = { "Set-Cookie": await clearPendingLoginCookie(config) };
    throw await redirectWithFlash("/login", { kind: "warn", message: PENDING_LOGIN_USED_MESSAGE }, config, cleared);
  }
  return pending;
}

/**
 * /login/factor: the second step of a sign-in whose password passed, for a member with a
 * second factor on a device not remembered (decision 045).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const pending = await standingSignIn(request, services);
  const overview = await factorOverview(services.db, pending.userId);
  return json(
    {
      methods: {
        passkey: overview.passkeys.length > 0,
        code: overview.totp !== null || overview.recoveryCodesLeft > 0,
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const pending = await standingSignIn(request, services);
  const form = await readForm(request);
  try {
    await ipLimit(services, "login", context.clientIp);
    const passed = await factorFromForm(
      services,
      pending.userId,
      form,
      { passkey: "passkey", code: "code" },
      { use: "sign-in", ip: context.clientIp },
    );
    if (!passed) return json({ error: "Enter a code, or use your passkey" }, { status: 400 });
    const client = clientMeta(request, context.clientIp, pending.devicePublicKey);
    const { sessionId, rememberToken } = await finishLogin(
      services,
      pending.userId,
      client,
      { ...passed, remember: form.get("remember") === "on" },
      pending.token,
    );
    const headers = await sessionCookies(services.config, sessionId, pending.redirectTo || undefined);
    headers.append("Set-Cookie", await clearPendingLoginCookie(services.config));
    if (rememberToken) headers.append("Set-Cookie", await rememberCookie(services.config, rememberToken));
    headers.set("Location", "/redirect-login-success");
    return new Response(null, { status: 302, headers });
  } catch (error) {
    if (!isDomainError(error) || error.status >= 500) throw error;
    const answer = errorJson(error);
    return json({ error: error.message }, { status: error.status, headers: answer.headers });
  }
}

export default function LoginFactor() {
  const { methods } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.error ?? null;
  return (
    <Card
      id="factor-title"
      title="Your second factor"
      lead="Your password is right. Now confirm it is you with your passkey or your authenticator app."
    >
      <FactorForm
        action="/login/factor"
        methods={methods}
        hidden={[]}
        codeName="code"
        passkeyName="passkey"
        passkeyOptions={{ url: "/login/passkey", fields: { intent: "factor-options" } }}
        error={error}
        submitLabel="Confirm"
        extra={
          <div className="field">
            <div className="checkbox">
              <input id="remember" type="checkbox" name="remember" />
              <label htmlFor="remember">Remember this device for 30 days</label>
            </div>
          </div>
        }
      />
      <p className="muted">
        {methods.code
          ? "Lost your phone or security key? Type one of the recovery codes you saved into the code field, or "
          : "Lost your passkey? "}
        <Link to="/login/help">{methods.code ? "ask for help" : "Ask for help"}</Link>.{" "}
        <Link to="/login">Start again</Link>
      </p>
    </Card>
  );
}
