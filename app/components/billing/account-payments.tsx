import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { DataTable } from "~/components/ui/record-table";
import { formatDate, formatMoney } from "~/lib/format";
import type { PaymentLine } from "~/services/billing/account.server";

type Line = SerializeFrom<PaymentLine>;

/** An amount, with the price before the coupon struck through when the coupon lowered it. */
export function Amount({ cents, listCents, currency }: { cents: number; listCents: number | null; currency: string }) {
  return (
    <>
      {listCents !== null ? (
        <>
          <s aria-label={`before the coupon ${formatMoney(listCents, currency)}`}>
            {formatMoney(listCents, currency)}
          </s>{" "}
        </>
      ) : null}
      {formatMoney(cents, currency)}
    </>
  );
}

export function periodText(line: Pick<Line, "periodStart" | "periodEnd">): string | null {
  return line.periodStart && line.periodEnd ? `${formatDate(line.periodStart)} to ${formatDate(line.periodEnd)}` : null;
}

/**
 * Payments, newest first: when, for what, how much (before and after the coupon), whether it
 * went through, by which card; with a link to each receipt where the page has one.
 */
export function PaymentTable({ payments, receiptPath }: { payments: Line[]; receiptPath?: (id: string) => string }) {
  if (payments.length === 0) return <p>No payments yet.</p>;
  return (
    <DataTable
      label="Payments"
      rows={payments}
      columns={[
        { header: "Date", cell: (p) => formatDate(p.date) },
        {
          header: "What",
          cell: (p) => {
            const period = periodText(p);
            return (
              <>
                {p.what}
                {period ? <span className="muted"> · {period}</span> : null}
              </>
            );
          },
        },
        {
          header: "Amount",
          cell: (p) => <Amount cents={p.amountCents} listCents={p.listAmountCents} currency={p.currency} />,
        },
        {
          header: "Status",
          cell: (p) =>
            p.refundedCents > 0 && p.status !== "refunded"
              ? `${p.statusText} (${formatMoney(p.refundedCents, p.currency)})`
              : p.statusText,
        },
        { header: "Card", cell: (p) => p.card ?? "—" },
        ...(receiptPath
          ? [
              {
                header: "Receipt",
                cell: (p: Line) =>
                  p.hasReceipt ? (
                    <Link to={receiptPath(p.id)} aria-label={`Receipt of ${formatDate(p.date)}, ${p.what}`}>
                      Receipt
                    </Link>
                  ) : (
                    "—"
                  ),
              },
            ]
          : []),
      ]}
    />
  );
}
