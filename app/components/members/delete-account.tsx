import { Form } from "@remix-run/react";
import { FactorForm } from "~/components/factors/factor-form";
import { SubmitButton } from "~/components/ui/submit-button";
import { PlainField } from "~/components/forms/inputs";

/** How the member confirms: their second factor's ways where they have one, else their password. */
export type DeletionConfirm = { passkey: boolean; code: boolean } | null;

/** /profile/delete: "Delete my account" (decision 051), confirmed with the password or the second factor. */
export function DeleteAccountSection({
  confirm,
  graceDays,
  error,
}: {
  confirm: DeletionConfirm;
  graceDays: number;
  error: string | null;
}) {
  return (
    <section aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete my account</h2>
      <p>
        Your membership is cancelled and your card removed at once, and you are logged out everywhere. Your data is
        erased after {graceDays} days; until then, logging in lets you keep your account. Payments stay in the
        community&apos;s accounts without your name (see the privacy policy).
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
    </section>
  );
}
