import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticateView } from "~/components/billing/checkout-pages";
import { authenticationSchema, checkoutQuerySchema } from "~/lib/schemas.server";
import { errorPage, notFoundPage, pageRedirect } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { invalid } from "~/domain/errors";
import { authenticatePage, authenticateSandbox, ownCheckout } from "~/services/billing/pages.server";
import { optionalViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Confirm this payment" }];

/** The sandbox's 3-D Secure page (Stripe shows its own, in its frame). */
async function checkoutOf(request: Request, context: LoaderFunctionArgs["context"]) {
  const query = checkoutQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) notFoundPage();
  const { viewer, services } = await optionalViewer(request, context);
  if (!services.providers.paymentsSandbox) notFoundPage();
  const checkout = await ownCheckout(services, request, viewer, query.data.checkout).catch(() => notFoundPage());
  return { services, checkout };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services, checkout } = await checkoutOf(request, context);
  return json(await authenticatePage(services, checkout));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { services, checkout } = await checkoutOf(request, context);
  const form = await readForm(request);
  const parsed = authenticationSchema.safeParse({ intent: form.get("intent") });
  if (!parsed.success) throw errorPage(invalid("Choose to complete or fail the confirmation"));
  const { next } = await authenticateSandbox(services, checkout, parsed.data.intent === "complete");
  return pageRedirect(request, next);
}

export default function Authenticate() {
  return <AuthenticateView data={useLoaderData<typeof loader>()} />;
}
