import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FormErrors, formProps, useSchemaForm } from "~/components/forms/fields";
import { FactTable } from "~/components/ui/fact-table";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDate, formatMoney } from "~/lib/format";
import type { ReceiptPage } from "~/services/billing/account-receipt.server";
import { periodText } from "./account-payments";

type Reply = SubmissionResult<string[]> | undefined;

/** A receipt for printing: the page's own chrome is left off the paper (app.css, print). */
export function ReceiptView({ data, lastResult }: { data: SerializeFrom<ReceiptPage>; lastResult: Reply }) {
  const { payment } = data;
  const [form] = useSchemaForm(() => import("~/domain/billing-account").then((m) => m.emailReceiptSchema), {
    id: "email-receipt",
    lastResult,
  });
  // Printing needs the browser's script: without it, the browser's own Print does the same.
  const [canPrint, setCanPrint] = useState(false);
  useEffect(() => setCanPrint(true), []);
  const period = periodText(payment);
  return (
    <section className="card receipt" aria-labelledby="receipt-title">
      <p className="no-print">
        <Link to="/profile/billing">Billing and payments</Link>
      </p>
      <h1 id="receipt-title">Receipt</h1>
      <p className="lead">{data.community}</p>
      <FactTable
        facts={[
          ["Receipt number", payment.id],
          ["Date", formatDate(payment.date)],
          ["Paid by", `${data.paidBy.name ? `${data.paidBy.name}, ` : ""}${data.paidBy.email}`],
          ["For", payment.what],
          ...(period ? [["Period", period] as [string, string]] : []),
          ["Amount", formatMoney(payment.amountCents, payment.currency)],
          ...(payment.listAmountCents !== null
            ? [["Price before the coupon", formatMoney(payment.listAmountCents, payment.currency)] as [string, string]]
            : []),
          ["Status", payment.statusText],
          ...(payment.refundedCents > 0
            ? [["Refunded", formatMoney(payment.refundedCents, payment.currency)] as [string, string]]
            : []),
          ["Card", payment.card ?? "—"],
        ]}
      />
      {payment.hasReceipt ? (
        <Form method="post" className="form no-print" aria-label="E-mail me this receipt" {...formProps(form)}>
          <FormErrors form={form} />
          <div className="actions">
            <SubmitButton name="intent" value="email-receipt" pendingText="Sending…">
              E-mail me this receipt
            </SubmitButton>
            {canPrint ? (
              <button type="button" className="button" onClick={() => window.print()}>
                Print
              </button>
            ) : null}
          </div>
        </Form>
      ) : (
        <p className="no-print">This payment did not go through: it has no receipt.</p>
      )}
    </section>
  );
}
