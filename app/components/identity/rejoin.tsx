import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import type { RejoinStanding } from "~/domain/account";
import { membershipIs } from "~/domain/membership-is";
import { Card } from "./card";

/** /re-join: a lapsed member's way back through the membership step; nothing to do for anyone else. */
export function RejoinView({ status, standing }: { status: string | null; standing: RejoinStanding }) {
  if (standing === "no-subscription") {
    return (
      <Card id="rejoin-title" title="There is nothing to re-join">
        <p>
          Re-joining is for a subscription that has lapsed, and you have none.{" "}
          <Link to="/subscription">See the plans</Link> if you would like one, or{" "}
          <Link to="/">go to the community home</Link>.
        </p>
      </Card>
    );
  }
  if (standing !== "lapsed") {
    return (
      <Card id="rejoin-title" title="Your membership is in order">
        <p>
          There is nothing to re-join. <Link to="/">Go to the community home</Link>.
        </p>
      </Card>
    );
  }
  return (
    <Card id="rejoin-title" title="Welcome back">
      <p>
        Your membership is {status ? membershipIs(status) : "over"}. Re-join to use the notice creator and the rest of
        the site again; your notices and documents are kept.
      </p>
      <Form method="post" className="actions">
        <SubmitButton pendingText="One moment…">Re-join</SubmitButton>
      </Form>
    </Card>
  );
}
