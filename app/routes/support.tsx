import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SupportForm } from "~/components/support";
import { appServices } from "~/services/app.server";
import { actorOf } from "~/services/accounts.server";
import { formFailure, parseForm, readForm } from "~/services/forms.server";
import { getViewer } from "~/services/session.server";
import { submitSupportRequest, supportSchema } from "~/services/support.server";

export const meta: MetaFunction = () => [{ title: "Contact Support" }];

/** The Contact Support form as a page: where the footer's Support link leads without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const viewer = await getViewer(request, services).catch(() => null);
  return json({ email: viewer?.member.email ?? "" });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const form = await readForm(request);
  const parsed = parseForm(supportSchema, form);
  if (!parsed.ok) return formFailure(form, parsed.fieldErrors);
  const viewer = await getViewer(request, services).catch(() => null);
  const result = await submitSupportRequest(services, parsed.data, {
    userId: viewer?.member.id ?? null,
    ip: context.clientIp,
    actor: viewer ? actorOf(viewer) : null,
  });
  if (!result.ok) {
    return formFailure(
      form,
      {},
      "You have sent several requests already; wait a while before sending another.",
      429,
      result.retryAfterSeconds,
    );
  }
  return json({ ok: true as const, entryNumber: result.entryNumber });
}

export default function SupportPage() {
  const { email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section className="card" aria-labelledby="support-title">
      <h1 id="support-title">Contact Support</h1>
      <SupportForm email={email} result={result} />
    </section>
  );
}
