import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { Card } from "./card";

/** /re-join: a lapsed member's way back through the membership step; nothing to do for anyone else. */
export function RejoinView({ status, lapsed }: { status: string | null; lapsed: boolean }) {
  if (!lapsed) {
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
        Your membership is {status?.toLowerCase().replace(/_/g, " ")}. Re-join to use the notice creator and the rest of
        the site again; your notices and documents are kept.
      </p>
      <Form method="post" className="actions">
        <SubmitButton pendingText="One moment…">Re-join</SubmitButton>
      </Form>
    </Card>
  );
}
