import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmbedSubscription } from "~/components/billing/account-embed";
import { embedSubscriptionPage } from "~/services/billing/account.server";
import { appServices } from "~/services/app.server";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Your membership" }];

/**
 * /embed/subscription: the member's membership inside the learning site's frame, read through
 * the API with state headers, and the plans with their prices. Paying and changing open the
 * full site in the top window: a card is never typed inside the frame.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  return json(await embedSubscriptionPage(await appServices(context)));
}

export default function EmbedSubscriptionPage() {
  return <EmbedSubscription data={useLoaderData<typeof loader>()} />;
}
