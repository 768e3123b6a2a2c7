import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { Card } from "./card";

export function LogoutView() {
  return (
    <Card id="logout-title" title="Log out">
      <p>You will need your password to come back.</p>
      <Form method="post" className="actions">
        <SubmitButton pendingText="Logging out…">Log out</SubmitButton>
      </Form>
    </Card>
  );
}
