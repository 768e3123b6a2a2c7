import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect, redirectDocument } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { FactorForm } from "~/components/factors/factor-form";
import { Card } from "~/components/identity/card";
import { isDomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { SENSITIVE_ACTION_WORDS, SENSITIVE_ACTIONS, type SensitiveAction } from "~/lib/schemas.server";
import { STEP_UP_CODE, STEP_UP_PASSKEY } from "~/domain/second-factor-words";
import { readForm } from "~/lib/submission.server";
import { factorOverview } from "~/services/factors/records.server";
import { passPostedFactor } from "~/services/factors/step-up.server";
import { requireViewer } from "~/services/session.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = () => [{ title: "Confirm it is you" }];

function purposeOf(value: string | null): string {
  const action = SENSITIVE_ACTIONS.find((one) => one === value) as SensitiveAction | undefined;
  return action ? SENSITIVE_ACTION_WORDS[action] : "go on";
}

/**
 * /profile/security/verify?redirectTo=…: passes the member's second factor for this session,
 * then goes back. Links to sensitive pages (an export) and sessions begun without the factor
 * the policy requires (the learning site's hand-off) come here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), "/");
  const overview = await factorOverview(services.db, viewer.user.id);
  if (!overview.hasFactor) throw redirect("/profile/security");
  return json(
    {
      redirectTo,
      purpose: purposeOf(url.searchParams.get("for")),
      methods: {
        passkey: overview.passkeys.length > 0,
        code: overview.totp !== null || overview.recoveryCodesLeft > 0,
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const form = await readForm(request);
  try {
    if (!(await passPostedFactor(services, viewer, form))) {
      return json({ error: "Enter a code, or use your passkey" }, { status: 400 });
    }
  } catch (error) {
    if (!isDomainError(error) || error.status >= 500) throw error;
    return json({ error: error.message }, { status: error.status });
  }
  // A document load: the page gone back to may be a download, or carry headers of its own.
  return redirectDocument(safeRedirectPath(form.get("redirectTo"), "/"));
}

export default function VerifyFactor() {
  const { redirectTo, purpose, methods } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.error ?? null;
  return (
    <Card id="verify-title" title="Confirm it is you" lead={`Use your second factor to ${purpose}.`}>
      <FactorForm
        action="/profile/security/verify"
        methods={methods}
        hidden={[["redirectTo", redirectTo]]}
        codeName={STEP_UP_CODE}
        passkeyName={STEP_UP_PASSKEY}
        passkeyOptions={{ url: "/profile/security/passkey", fields: { intent: "factor-options" } }}
        error={error}
        submitLabel="Confirm"
      />
      <p className="muted">
        <Link to="/">Cancel</Link>
      </p>
    </Card>
  );
}
