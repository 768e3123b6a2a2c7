import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BackToSecurity, CodeField } from "~/components/factors/code-field";
import { Card } from "~/components/identity/card";
import { SubmitButton } from "~/components/ui/submit-button";
import { isDomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { totpCodeSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { actorOf } from "~/services/audit.server";
import { confirmTotp, totpSetup } from "~/services/factors/codes.server";
import { factorChanged, factorOverview } from "~/services/factors/records.server";
import { sessionPassedNow } from "~/services/factors/security-page.server";
import { requireStepUp } from "~/services/factors/step-up.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Set up an authenticator app" }];

const backOf = (value: unknown) => safeRedirectPath(value, "") || null;

/**
 * /profile/security/totp: an authenticator app set up with a QR code or the typed secret, and
 * confirmed by its first code (decision 045). The secret travels sealed in the form until then.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const overview = await factorOverview(services.db, viewer.user.id);
  if (overview.totp) throw redirect("/profile/security");
  const setup = await totpSetup(services, viewer.user);
  return json(
    { setup, redirectTo: backOf(new URL(request.url).searchParams.get("redirectTo")) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const form = await readForm(request);
  await requireStepUp(services, viewer, "factor-change", request, form);
  const sealed = String(form.get("sealed") ?? "");
  const redirectTo = backOf(form.get("redirectTo"));
  const again = async (error: string, status: number) =>
    json({ error, setup: await totpSetup(services, viewer.user, sealed) }, { status });
  const code = totpCodeSchema.safeParse(form.get("code") ?? "");
  if (!code.success) return again(code.error.issues[0]!.message, 400);
  try {
    await confirmTotp(services, viewer.user.id, { sealed, code: code.data });
  } catch (error) {
    if (!isDomainError(error) || error.status >= 500) throw error;
    return again(error.message, error.status);
  }
  await sessionPassedNow(services.db, viewer.session.id);
  await factorChanged(services, actorOf(viewer), viewer.user.id, { event: "added", kind: "totp" });
  const { recoveryCodesLeft } = await factorOverview(services.db, viewer.user.id);
  const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  if (recoveryCodesLeft > 0) {
    return redirectWithFlash(
      redirectTo ?? "/profile/security",
      { kind: "success", message: "Your authenticator app is set up." },
      services.config,
    );
  }
  return redirectWithFlash(
    `/profile/security/recovery-codes${query}`,
    { kind: "success", message: "Your authenticator app is set up. Now make your recovery codes." },
    services.config,
  );
}

export default function TotpSetup() {
  const loaded = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const setup = answer?.setup ?? loaded.setup;
  return (
    <Card
      id="totp-title"
      title="Set up an authenticator app"
      lead="An authenticator app (such as 1Password, Google Authenticator or Aegis) shows a new 6-digit code every 30 seconds."
    >
      <ol>
        <li>
          <p>Scan this QR code with the app:</p>
          <div
            className="qr-code"
            role="img"
            aria-label="QR code of your account's secret"
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
        </li>
        <li>
          <p>
            Or type this secret into the app: <code>{setup.secret}</code>
          </p>
        </li>
        <li>
          <p>Then enter the code the app shows, to confirm it works.</p>
        </li>
      </ol>
      <Form method="post" className="form">
        <input type="hidden" name="sealed" value={setup.sealed} />
        {loaded.redirectTo ? <input type="hidden" name="redirectTo" value={loaded.redirectTo} /> : null}
        <CodeField
          name="code"
          label="The 6-digit code from the app"
          hint="Six digits, such as 123 456."
          error={answer?.error ?? null}
          autoFocus
        />
        <div className="actions">
          <SubmitButton pendingText="Checking…">Confirm and turn on</SubmitButton>
        </div>
      </Form>
      <BackToSecurity />
    </Card>
  );
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
