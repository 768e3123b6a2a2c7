import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { CardPageView } from "~/components/billing/checkout-pages";
import { checkoutQuerySchema, sandboxCardSchema } from "~/lib/schemas.server";
import { notFoundPage, pageRedirect } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { cardPage, ownCheckout, payWithSandboxCard } from "~/services/billing/pages.server";
import { optionalViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Pay by card" }];

/**
 * The card entry page: the only pages ("unsafe") whose content security policy lets the
 * payments provider's script and frame in (server.ts).
 */
async function checkoutOf(request: Request, context: LoaderFunctionArgs["context"]) {
  const query = checkoutQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) notFoundPage();
  const { viewer, services } = await optionalViewer(request, context);
  const checkout = await ownCheckout(services, request, viewer, query.data.checkout).catch(() => notFoundPage());
  return { services, checkout };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services, checkout } = await checkoutOf(request, context);
  return json(await cardPage(services, checkout));
}

/** The sandbox's card form posts here; Stripe's element confirms in the browser instead. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { services, checkout } = await checkoutOf(request, context);
  if (!services.providers.paymentsSandbox) notFoundPage();
  const { submission } = await parseSubmission(request, sandboxCardSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(
    submission,
    async () => pageRedirect(request, (await payWithSandboxCard(services, checkout, submission.value)).next),
    // A refused card is no bad request: 402, as the card networks' APIs answer it.
    (error) => (error.fieldErrors?.cardNumber ? 402 : undefined),
  );
}

export default function CardPlus() {
  const [params] = useSearchParams();
  return (
    <CardPageView
      data={useLoaderData<typeof loader>()}
      lastResult={lastResultOf(useActionData<typeof action>())}
      authenticationFailed={params.get("authentication") === "failed"}
    />
  );
}
