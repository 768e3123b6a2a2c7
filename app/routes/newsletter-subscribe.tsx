import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Alert } from "~/components/ui/alert";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { Field, Honeypot } from "~/components/ui/field";
import { SubmitButton } from "~/components/ui/submit-button";
import { emailSchema, honeypotSchema } from "~/domain/account";
import { appServices } from "~/services/app.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";
import { confirmNewsletter, subscribeNewsletter, unsubscribeNewsletter } from "~/services/newsletter.server";
import { getViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Newsletter" }];

const token = z.string().min(20).max(200);
const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), email: emailSchema, website: honeypotSchema }),
  z.object({ intent: z.literal("confirm"), token }),
  z.object({ intent: z.literal("unsubscribe"), token }),
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const url = new URL(request.url);
  const viewer = await getViewer(request, services).catch(() => null);
  const confirm = token.safeParse(url.searchParams.get("confirm"));
  const unsubscribe = token.safeParse(url.searchParams.get("unsubscribe"));
  return json({
    email: viewer?.member.email ?? "",
    confirm: confirm.success ? confirm.data : null,
    unsubscribe: unsubscribe.success ? unsubscribe.data : null,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const form = await readForm(request);
  const parsed = parseForm(intentSchema, form);
  if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
  const data = parsed.data;
  if (data.intent === "confirm") {
    const done = await confirmNewsletter(services, data.token);
    return json({ ok: true as const, done: done ? ("confirmed" as const) : ("expired" as const) });
  }
  if (data.intent === "unsubscribe") {
    const done = await unsubscribeNewsletter(services, data.token);
    return json({ ok: true as const, done: done ? ("unsubscribed" as const) : ("expired" as const) });
  }
  const result = await subscribeNewsletter(services, data.email, context.clientIp);
  if (!result.ok) {
    return formFailure(
      form,
      {},
      "Too many requests from your network. Wait a minute and try again.",
      429,
      result.retryAfterSeconds,
    );
  }
  return json({ ok: true as const, done: "sent" as const, email: data.email });
}

const MESSAGES = {
  sent: { kind: "success", text: "Check your e-mail: open the link we sent to confirm your subscription." },
  confirmed: { kind: "success", text: "Thank you: you will receive our newsletter." },
  unsubscribed: { kind: "success", text: "You will not receive our newsletter any more." },
  expired: { kind: "warn", text: "This link does not work any more. Subscribe again to get a new one." },
} as const;

export default function Newsletter() {
  const { email, confirm, unsubscribe } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = result && !result.ok ? result : undefined;
  const message = result && result.ok ? MESSAGES[result.done] : null;
  return (
    <section className="card" aria-labelledby="newsletter-title">
      <h1 id="newsletter-title">Newsletter</h1>
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      {!message && confirm ? (
        <Form method="post" className="actions">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={confirm} />
          <SubmitButton pendingText="Confirming…">Confirm my subscription</SubmitButton>
        </Form>
      ) : null}
      {!message && unsubscribe ? (
        <Form method="post" className="actions">
          <input type="hidden" name="intent" value="unsubscribe" />
          <input type="hidden" name="token" value={unsubscribe} />
          <ConfirmButton>Stop the newsletter</ConfirmButton>
        </Form>
      ) : null}
      {!message && !confirm && !unsubscribe ? (
        <>
          <p className="lead">News of the community, now and then. You can stop it at any time.</p>
          <Form method="post" className="form" noValidate>
            <input type="hidden" name="intent" value="subscribe" />
            <Field
              label="E-mail address"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={failure?.values.email ?? email}
              errors={failure?.fieldErrors.email}
            />
            <Honeypot />
            <div className="actions">
              <SubmitButton pendingText="Subscribing…">Subscribe</SubmitButton>
            </div>
          </Form>
        </>
      ) : null}
    </section>
  );
}
