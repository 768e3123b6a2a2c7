import { Form, Link } from "@remix-run/react";
import { FactorForm } from "~/components/factors/factor-form";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { PlainField } from "~/components/forms/inputs";

/** How the member confirms: their second factor's ways where they have one, else their password. */
export type DeletionConfirm = { passkey: boolean; code: boolean } | null;

/**
 * /profile/delete: "Delete my account" (decision 051), confirmed with the password or the
 * second factor. The page's own heading names it; the community's only admin is told why they
 * cannot before anything is asked of them.
 */
export function DeleteAccountSection({
  confirm,
  graceDays,
  onlyAdmin,
  error,
}: {
  confirm: DeletionConfirm;
  graceDays: number;
  onlyAdmin: boolean;
  error: string | null;
}) {
  if (onlyAdmin) {
    return (
      <>
        <Alert kind="warn" title="You cannot delete your account yet">
          You are the only admin of this community: without you, no one could run it or make another admin. Make another
          member an admin first, then come back here.
        </Alert>
        <p>
          <Link to="/members">Choose a member to make an admin</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <p>
        Any membership of yours is cancelled and any card on file removed at once, and you are logged out everywhere.
        Your data is erased after {graceDays} days; until then, logging in lets you keep your account. Payments stay in
        the community&apos;s accounts without your name (see the privacy policy).
      </p>
      {confirm ? (
        <FactorForm
          action="/profile/delete"
          methods={confirm}
          hidden={[["intent", "delete-account"]]}
          codeName="code"
          passkeyName="passkey"
          passkeyOptions={{ url: "/profile/security/passkey", fields: { intent: "factor-options" } }}
          error={error}
          submitLabel="Delete my account"
        />
      ) : (
        <Form method="post" className="form">
          <PlainField
            id="delete-password"
            label="Your password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={error}
          />
          <div className="actions">
            <SubmitButton name="intent" value="delete-account" className="button button-danger" pendingText="Deleting…">
              Delete my account
            </SubmitButton>
          </div>
        </Form>
      )}
    </>
  );
}
