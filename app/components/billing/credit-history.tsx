import { DataTable } from "~/components/ui/record-table";
import { creditsText } from "~/domain/credit-text";
import type { CreditLine } from "~/services/billing/credits.server";

/** A member's credits (the profile's, or on an admin's page of the member): the balance and every change of it. */
export function CreditHistory({
  balance,
  history,
  owner = "You have",
}: {
  balance: number;
  history: CreditLine[];
  owner?: "You have" | "The member has";
}) {
  const body = (
    <>
      <p>
        {owner} <strong data-testid="credit-balance">{creditsText(balance)}</strong>.
      </p>
      {history.length === 0 ? (
        <p>No credit bought, granted or spent yet.</p>
      ) : (
        <DataTable
          caption="Credit history"
          rows={history}
          columns={[
            { header: "When", cell: (line) => line.at },
            { header: "What", cell: (line) => line.what },
            { header: "Credits", cell: (line) => (line.delta > 0 ? `+${line.delta}` : line.delta) },
            { header: "Note", cell: (line) => line.note ?? "" },
          ]}
        />
      )}
    </>
  );
  if (owner !== "You have") return body;
  return (
    <section aria-labelledby="credit-history-title">
      <h2 id="credit-history-title">Notarize credits</h2>
      {body}
    </section>
  );
}
