import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SignerPageView } from "~/components/notary/signer-page";
import { sandboxSignerPath } from "~/domain/documents/notarize-view";
import { notFoundPage } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { appServices } from "~/services/app.server";
import { safeReturn, signerPage, signerStepSchema, takeSignerStep } from "~/services/notary/signer-page.server";

export const meta: MetaFunction = () => [
  { title: "Sign and notarize — sandbox notary" },
  // The address is the signer's key: no search engine should keep it.
  { name: "robots", content: "noindex, nofollow" },
];

/** The sandbox notary's signer page, public: the access URL is the capability. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const page = await signerPage(services, params.transactionId ?? "", new URL(request.url).searchParams.get("return"));
  if (!page) notFoundPage();
  return json(page, { status: page.kind === "removed" ? 410 : 200 });
}

/** "Meet the notary" and "Sign": plain form posts, so the page works without JavaScript. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const transactionId = params.transactionId ?? "";
  const form = await readForm(request);
  const parsed = signerStepSchema.safeParse({
    intent: form.get("intent") ?? undefined,
    return: form.get("return") ?? undefined,
  });
  if (!parsed.success) return json({ error: "Choose a step on this page" }, { status: 400 });
  const taken = await takeSignerStep(services, transactionId, parsed.data.intent);
  if (!taken) notFoundPage();
  if (!taken.ok) return json({ error: taken.message }, { status: 409 });
  return redirect(sandboxSignerPath(transactionId, safeReturn(parsed.data.return)));
}

export default function SandboxSignerPage() {
  const actionData = useActionData<typeof action>();
  return <SignerPageView data={useLoaderData<typeof loader>()} error={actionData?.error ?? null} />;
}
