import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/identity/card";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { unsubscribeLinkSchema } from "~/lib/schemas.server";
import { REMINDER_LABELS } from "~/domain/nol/reminders";
import { appServices } from "~/services/app.server";
import { linkIsGenuine, unsubscribeByLink } from "~/services/nol/reminders.server";

export const meta: MetaFunction = () => [{ title: "NoL reminders" }];

const NOT_VALID = "This link is not valid: open it from the e-mail again, or choose your reminders on your profile.";

/** The link's member, kind and token, from its query (the page's form and a mail program's one-click post alike). */
function linkOf(request: Request) {
  const parsed = unsubscribeLinkSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  return parsed.success ? parsed.data : null;
}

/** /reminders/unsubscribe?…: the e-mail's link shows the kind it stops and a button to stop it. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const link = linkOf(request);
  if (!link || !linkIsGenuine(services.config, link))
    return json({ label: null, query: null, error: NOT_VALID }, { status: 400 });
  return json({ label: REMINDER_LABELS[link.kind], query: new URL(request.url).search, error: null });
}

/**
 * Stops the kind of reminder: from the page's button, or posted by a mail program
 * (List-Unsubscribe-Post, RFC 8058), with the token as the only authority.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const link = linkOf(request);
  if (!link || !(await unsubscribeByLink(services, link)))
    return json({ done: false, error: NOT_VALID }, { status: 400 });
  return json({ done: true, error: null });
}

export default function ReminderUnsubscribe() {
  const { label, query, error } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <Card id="reminders-title" title="NoL reminders">
      {reply?.done ? (
        <Alert kind="success">
          You will get no more of these e-mails ({label?.toLowerCase()}). The other reminders, and this one again, are
          on <Link to="/profile/notices">your profile</Link>.
        </Alert>
      ) : null}
      {error || reply?.error ? <Alert kind="error">{reply?.error ?? error}</Alert> : null}
      {!reply?.done && label && query ? (
        <Form method="post" action={`/reminders/unsubscribe${query}`} className="form">
          <p className="lead">Stop the e-mails that remind you: {label.toLowerCase()}.</p>
          <div className="actions">
            <SubmitButton pendingText="Stopping…">Stop these e-mails</SubmitButton>
          </div>
        </Form>
      ) : null}
    </Card>
  );
}
