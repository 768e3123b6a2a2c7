import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReturnView } from "~/components/billing/checkout-pages";
import { checkoutQuerySchema } from "~/lib/schemas.server";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { ownCheckout, returnPage } from "~/services/billing/pages.server";
import { optionalViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Your payment" }];

/**
 * Where the browser lands after confirming (and after a 3-D Secure step): it reads the
 * intent's real status from the provider, never the query's `redirect_status`.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = checkoutQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) notFoundPage();
  const { viewer, services } = await optionalViewer(request, context);
  const checkout = await ownCheckout(services, request, viewer, query.data.checkout).catch(() => notFoundPage());
  return json(await withPageErrors(() => returnPage(services, checkout, viewer)), {
    headers: { "Cache-Control": "no-store" },
  });
}

export default function PaymentIntent() {
  return <ReturnView data={useLoaderData<typeof loader>()} />;
}
