import type { SerializeFrom } from "@remix-run/node";
import { useEffect, useState } from "react";
import { failureMessage, useFrameSession } from "~/components/frame-session";
import { FrameStatus } from "~/components/frame-status";
import { Alert } from "~/components/ui/alert";
import { FactTable } from "~/components/ui/fact-table";
import { api } from "~/lib/api-client";
import { formatDate, formatMoney } from "~/lib/format";
import type { embedSubscriptionPage, Membership } from "~/services/billing/account.server";

type Data = SerializeFrom<typeof embedSubscriptionPage>;
type Plan = Data["plans"][number];
type MembershipData = SerializeFrom<Membership>;

const priceOf = (plan: Plan) =>
  plan.amountCents === null
    ? "an amount you choose"
    : `${formatMoney(plan.amountCents, plan.currency)}${plan.interval ? ` a ${plan.interval}` : ""}`;

/**
 * The member's membership inside the learning site's frame (state headers through the API),
 * and the plans with their prices. Every way to pay or change opens the full site in the top
 * window (target="_top"): a card is never typed inside the frame.
 */
export function EmbedSubscription({ data }: { data: Data }) {
  const { supportEmail, baseUrl } = data;
  const { session } = useFrameSession(supportEmail);
  const [membership, setMembership] = useState<MembershipData | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const inSetup = session.status === "signed-in" && session.state.needsSetup;
  useEffect(() => {
    // A member still in setup has no membership to read yet: the page says where to finish.
    if (session.status !== "signed-in" || inSetup) return;
    api<{ membership?: MembershipData | null }>("/api/billing/membership")
      .then(({ data: answer, error: failed }) => {
        if (failed || !answer || answer.membership === undefined) {
          throw new Error(failed ?? "Your membership could not be read");
        }
        setMembership(answer.membership);
      })
      .catch((e: unknown) =>
        setError(failureMessage(e, supportEmail, e instanceof Error ? e.message : "Your membership could not be read")),
      );
  }, [session.status, inSetup, supportEmail]);
  const manage = `${baseUrl}/profile/billing`;
  // A member with a membership in force changes it from their billing page; anything else is paid on /subscription.
  const planLink = (plan: Plan) =>
    plan.kind === "subscription" && membership?.actions.changePlan
      ? manage
      : `${baseUrl}/subscription?plan=${encodeURIComponent(plan.id)}`;
  return (
    <section className="card" aria-labelledby="embed-title" aria-live="polite">
      <h1 id="embed-title">Your membership</h1>
      <FrameStatus session={session}>
        {() =>
          inSetup ? (
            <Alert kind="warn">
              Finish your setup first, then your membership shows here.{" "}
              <a href={`${baseUrl}/setup`} target="_top">
                Go to your setup
              </a>
            </Alert>
          ) : error ? (
            <Alert kind="error">{error}</Alert>
          ) : membership === undefined ? (
            <p role="status">Loading your membership…</p>
          ) : membership === null ? (
            <p>No membership.</p>
          ) : (
            <>
              <FactTable
                facts={[
                  ["Plan", membership.plan],
                  ["Status", membership.statusText],
                  [membership.endsOn ? "Ends on" : "Renews on", renewal(membership)],
                ]}
              />
              <p>
                <a href={manage} target="_top">
                  Manage your membership, card and payments
                </a>
              </p>
            </>
          )
        }
      </FrameStatus>
      <h2>Plans</h2>
      <ul>
        {data.plans.map((plan) => (
          <li key={plan.id}>
            <a href={planLink(plan)} target="_top" aria-label={`${plan.title}, ${priceOf(plan)}`}>
              {plan.title}
            </a>{" "}
            — {priceOf(plan)}
          </li>
        ))}
      </ul>
    </section>
  );
}

function renewal(m: MembershipData): string {
  if (m.endsOn) return formatDate(m.endsOn);
  if (!m.renewsOn) return "—";
  return `${formatDate(m.renewsOn)}${m.amountCents !== null ? `, ${formatMoney(m.amountCents, m.currency)}` : ""}`;
}
