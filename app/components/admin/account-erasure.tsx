import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";

export type ErasureState = { erased: boolean; dueOn: string | null };

/** /members/{id}: where the account's deletion stands, and "Erase now on request" (decision 051). */
export function MemberErasure({ username, state }: { username: string; state: ErasureState }) {
  return (
    <section aria-labelledby="erasure-title">
      <h2 id="erasure-title">Erasure</h2>
      {state.erased ? (
        <p role="status">This account is erased: only its payments and memberships are kept, under this opaque name.</p>
      ) : (
        <>
          <p>
            {state.dueOn
              ? `${username} deleted their account: it is erased on ${state.dueOn}, unless they log in and keep it.`
              : `${username} has not deleted their account.`}{" "}
            Erasing at the member&apos;s request cancels their membership, removes their card, e-mails them and erases
            their data now. An erasure cannot be undone.
          </p>
          <Form method="post" className="form">
            <div className="field">
              <label htmlFor="erase-confirm">Type the username to confirm</label>
              <input id="erase-confirm" name="confirm" autoComplete="off" required />
            </div>
            <div className="actions">
              <SubmitButton name="intent" value="erase" className="button button-danger" pendingText="Erasing…">
                Erase now on request
              </SubmitButton>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
