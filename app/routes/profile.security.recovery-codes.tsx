import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { BackToSecurity } from "~/components/factors/code-field";
import { Card } from "~/components/identity/card";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { safeRedirectPath } from "~/domain/guard";
import { readForm } from "~/lib/submission.server";
import { actorOf } from "~/services/audit.server";
import { newRecoveryCodes } from "~/services/factors/recovery-codes.server";
import { factorChanged, factorOverview } from "~/services/factors/records.server";
import { requireStepUp } from "~/services/factors/step-up.server";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Recovery codes" }];

const NO_STORE = { "Cache-Control": "no-store" };
const backOf = (value: unknown) => safeRedirectPath(value, "") || null;

/**
 * /profile/security/recovery-codes: ten single-use codes, made on the POST and shown in its
 * answer only (they are kept hashed); a new set ends the old one (decision 045).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const overview = await factorOverview(services.db, viewer.user.id);
  if (!overview.hasFactor) throw redirect("/profile/security");
  return json(
    { left: overview.recoveryCodesLeft, redirectTo: backOf(new URL(request.url).searchParams.get("redirectTo")) },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const form = await readForm(request);
  await requireStepUp(services, viewer, "factor-change", request, form);
  const overview = await factorOverview(services.db, viewer.user.id);
  if (!overview.hasFactor) throw redirect("/profile/security");
  const codes = await newRecoveryCodes(services, viewer.user.id);
  await factorChanged(services, actorOf(viewer), viewer.user.id, { event: "added", kind: "recovery" });
  return json({ codes }, { headers: NO_STORE });
}

export default function RecoveryCodes() {
  const { left, redirectTo } = useLoaderData<typeof loader>();
  const made = useActionData<typeof action>();
  const onward = redirectTo ?? "/profile/security";
  if (made?.codes) {
    return (
      <Card
        id="codes-title"
        title="Your recovery codes"
        lead="Save these codes now: this page is the only time they are shown."
      >
        <Alert kind="warn">
          Keep them somewhere safe apart from your phone (a password manager, or printed). Each code signs you in once
          when your passkey or authenticator app is lost; your earlier codes no longer work.
        </Alert>
        <ol className="recovery-codes" aria-label="Recovery codes">
          {made.codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ol>
        <p>
          <Link to={onward} className="button button-primary">
            I have saved them
          </Link>
        </p>
      </Card>
    );
  }
  return (
    <Card
      id="codes-title"
      title="Recovery codes"
      lead={
        left > 0
          ? `You have ${left} unused recovery code${left === 1 ? "" : "s"}. Making new ones ends them.`
          : "You have no recovery codes: without them, losing your passkey or app means asking an admin to reset your account."
      }
    >
      <Form method="post" className="form">
        <div className="actions">
          <SubmitButton pendingText="Making codes…">
            {left > 0 ? "Make new codes" : "Make my recovery codes"}
          </SubmitButton>
        </div>
      </Form>
      <BackToSecurity />
    </Card>
  );
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
