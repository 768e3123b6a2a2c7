import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/identity/card";
import { DeleteAccountSection } from "~/components/members/delete-account";
import { ProfileCard } from "~/components/members/profile-card";
import { isDomainError } from "~/domain/errors";
import { formatDate } from "~/lib/format";
import { readForm } from "~/lib/submission.server";
import { factorOverview } from "~/services/factors/records.server";
import { redirectWithFlash } from "~/services/flash.server";
import { deleteOwnAccount, isOnlyAdmin } from "~/services/member-data/deletion.server";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Delete my account" }];

/**
 * /profile/delete: the member deletes their account (decision 051), confirmed with the password
 * or the second factor. Open to a member who has not finished setup too (the guard lets them
 * through): leaving is theirs at any step.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const factors = await factorOverview(services.db, viewer.member.id);
  const hasFactor = factors.passkeys.length > 0 || factors.totp !== null;
  const confirm = hasFactor
    ? { passkey: factors.passkeys.length > 0, code: factors.totp !== null || factors.recoveryCodesLeft > 0 }
    : null;
  return json(
    {
      confirm,
      graceDays: services.config.accountDeletionGraceDays,
      onlyAdmin: await isOnlyAdmin(services, viewer.member.id),
      inSetup: viewer.member.needsSetup,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "delete-account")
    return json({ intent: String(intent ?? ""), error: "Unknown action" }, { status: 400 });
  try {
    const { dueAt } = await deleteOwnAccount(services, viewer, form);
    const message = `Your account is deleted and you are logged out. Your data is erased on ${formatDate(dueAt)}; log in before then to keep it.`;
    return redirectWithFlash("/", { kind: "success", message }, services.config);
  } catch (error) {
    if (!isDomainError(error) || error.status >= 500) throw error;
    return json({ intent, error: error.message }, { status: error.status });
  }
}

export default function DeleteAccount() {
  const { confirm, graceDays, onlyAdmin, inSetup } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.error ?? null;
  const section = <DeleteAccountSection confirm={confirm} graceDays={graceDays} onlyAdmin={onlyAdmin} error={error} />;
  // The profile's tabs would lead a member still in setup back to setup: the way back is setup itself.
  return inSetup ? (
    <Card id="profile-title" title="Delete my account">
      {section}
      <p className="muted">
        <Link to="/setup">Back to your setup</Link>
      </p>
    </Card>
  ) : (
    <ProfileCard page="account" title="Delete my account">
      {section}
    </ProfileCard>
  );
}
