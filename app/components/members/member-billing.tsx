import type { SerializeFrom } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { PaymentTable } from "~/components/billing/account-payments";
import { FactTable } from "~/components/ui/fact-table";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDate } from "~/lib/format";
import type { memberBilling } from "~/services/members.server";

type Membership = NonNullable<SerializeFrom<typeof memberBilling>["membership"]>;

/** What the period's end brings, with its day: a complimentary membership with an end date ends then. */
function periodEndWords(m: Membership): string {
  if (m.endedOn) return `Ended on ${formatDate(m.endedOn)}`;
  if (m.endsOn) return `Ends on ${formatDate(m.endsOn)}`;
  if (m.renewsOn) return `Renews on ${formatDate(m.renewsOn)}`;
  if (m.ended) return "Ended";
  if (m.cancelAtPeriodEnd) return "Ends";
  return m.periodEnd ? "Renews" : "Goes on until an admin ends it";
}

/** /members/{id}'s Billing section: the member's membership, latest payments, and (sandbox) "Renew now". */
export function MemberBilling({ billing }: { billing: SerializeFrom<typeof memberBilling> }) {
  const m = billing.membership;
  return (
    <section className="card card-wide" aria-labelledby="member-billing-title">
      <h2 id="member-billing-title">Billing</h2>
      {m ? (
        <FactTable
          facts={[
            ["Plan", m.plan],
            ["Status", m.statusText],
            ["Period ends", m.periodEnd ? formatDate(m.periodEnd) : "—"],
            ["At the period's end", periodEndWords(m)],
          ]}
        />
      ) : (
        <p>No membership.</p>
      )}
      {billing.canRenew ? (
        <Form method="post" className="actions">
          <SubmitButton name="intent" value="renew-now" pendingText="Renewing…">
            Renew now
          </SubmitButton>
          <span className="field-hint">
            Sandbox: charges the next period now, or ends a membership set to end, as the period&apos;s end would.
          </span>
        </Form>
      ) : null}
      <h3>Latest payments</h3>
      <PaymentTable payments={billing.payments} />
    </section>
  );
}
