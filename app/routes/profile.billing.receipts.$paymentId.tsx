import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ReceiptView } from "~/components/billing/account-receipt";
import { lastResultOf } from "~/components/forms/fields";
import { emailReceiptSchema } from "~/lib/schemas.server";
import { withPageErrors } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { emailReceipt, receiptPage } from "~/services/billing/account-receipt.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Receipt" }];

/** /profile/billing/receipts/{paymentId}: a printable receipt of one of the member's own payments. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const receipt = await withPageErrors(() => receiptPage(services, viewer, params.paymentId ?? ""));
  return json(receipt, { headers: { "Cache-Control": "no-store" } });
}

/** "E-mail me this receipt": sent again to the member's address. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const paymentId = params.paymentId ?? "";
  // Another member's payment is not found before any form is read.
  await withPageErrors(() => receiptPage(services, viewer, paymentId));
  const { submission } = await parseSubmission(request, emailReceiptSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const to = await emailReceipt(services, viewer, paymentId);
    return redirectWithFlash(
      `/profile/billing/receipts/${paymentId}`,
      { kind: "success", message: `The receipt is on its way to ${to}.` },
      services.config,
    );
  });
}

export default function Receipt() {
  return (
    <ReceiptView data={useLoaderData<typeof loader>()} lastResult={lastResultOf(useActionData<typeof action>())} />
  );
}
