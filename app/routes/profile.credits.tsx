import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { CreditHistory } from "~/components/billing/credit-history";
import { OneOffForm } from "~/components/billing/credits";
import { creditSummary } from "~/services/billing/credits.server";
import { oneOffOffer } from "~/services/billing/subscription-page.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Notarize credits and donations" }];

/**
 * /profile/credits: the member's notarize credits and their history, and a donation or a credit
 * to pay at any time, with or without a membership (the form posts to /subscription's checkout).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const credits = await creditSummary(services.db, viewer.member.id);
  const offer = await oneOffOffer(services, randomUUID());
  return json({ credits, offer }, { headers: { "Cache-Control": "no-store" } });
}

export default function ProfileCredits() {
  const { credits, offer } = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="credits-page-title">
      <p>
        <Link to="/profile/billing">Billing and payments</Link>
      </p>
      <h1 id="credits-page-title">Notarize credits and donations</h1>
      <CreditHistory balance={credits.balance} history={credits.history} />
      <OneOffForm offer={offer} id="one-off" />
    </section>
  );
}
