import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReturnView } from "~/components/billing/checkout-pages";
import { checkoutQuerySchema } from "~/lib/schemas.server";
import { notFoundPage, pageRedirect, withPageErrors } from "~/lib/http.server";
import { flashHeader } from "~/services/flash.server";
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
  const page = await withPageErrors(() => returnPage(services, checkout, viewer));
  // A credit bought from a notarize page: back to the notice it was bought for.
  if (page.returnTo) {
    const flash = await flashHeader(services.config, { kind: "success", message: page.returnMessage });
    return pageRedirect(request, page.returnTo, { headers: { "Set-Cookie": flash } });
  }
  return json(page, { headers: { "Cache-Control": "no-store" } });
}

export default function PaymentIntent() {
  return <ReturnView data={useLoaderData<typeof loader>()} />;
}
