import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { isDomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { errorJson } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { ipLimit } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { sessionCookies } from "~/services/auth.server";
import { authenticationOptions, readPasskeyField, verifyPasskey } from "~/services/factors/passkeys.server";
import { finishLogin, pendingLoginOpen, readPendingLogin } from "~/services/factors/sign-in.server";
import { clientMeta } from "~/services/session.server";

/**
 * POST /login/passkey: a sign-in by passkey alone (decision 045).
 * - intent=options: the options for any passkey of this site (JSON);
 * - intent=factor-options: the options for the passkeys of the sign-in waiting at /login/factor;
 * - a form with the field `passkey`: verified, the session opened, and on to the page after login.
 */
export async function loader() {
  throw json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  try {
    await ipLimit(services, "login", context.clientIp);
    const form = await readForm(request);
    const intent = form.get("intent");
    if (intent === "options") {
      return json(await authenticationOptions(services, "sign-in", null), { headers: { "Cache-Control": "no-store" } });
    }
    if (intent === "factor-options") {
      const pending = await readPendingLogin(request, services.config);
      if (!pending || !(await pendingLoginOpen(services.db, pending))) {
        return json({ error: "Your sign-in has expired. Log in again." }, { status: 401 });
      }
      return json(await authenticationOptions(services, "factor", pending.userId), {
        headers: { "Cache-Control": "no-store" },
      });
    }
    const answer = readPasskeyField(form.get("passkey"));
    if (!answer) return json({ error: "Use your passkey first" }, { status: 400 });
    const { userId, factorId } = await verifyPasskey(services, "sign-in", null, answer);
    const redirectTo = safeRedirectPath(form.get("redirectTo"), "") || undefined;
    const client = clientMeta(request, context.clientIp, form.get("devicePublicKey"));
    const { sessionId } = await finishLogin(
      services,
      userId,
      client,
      { kind: "passkey", factorId, remember: false },
      null,
    );
    const headers = await sessionCookies(services.config, sessionId, redirectTo);
    return redirect("/redirect-login-success", { headers });
  } catch (error) {
    if (isDomainError(error) && error.status < 500) return errorJson(error);
    throw error;
  }
}
