import type { AppServices } from "~/context";
import { communityFor } from "~/domain/community";
import { invalid } from "~/domain/errors";
import type { Viewer } from "../session.server";
import { ownPayment, paymentLine, type PaymentLine } from "./account.server";
import { receiptText } from "./notices.server";

/** A member's receipt for one of their payments: a printable page, and sent again by e-mail. */

export type ReceiptPage = {
  payment: PaymentLine;
  community: string;
  paidBy: { name: string | null; email: string };
};

export async function receiptPage(services: AppServices, viewer: Viewer, paymentId: string): Promise<ReceiptPage> {
  const { payment, plan } = await ownPayment(services, viewer, paymentId);
  return {
    payment: paymentLine(payment, plan?.title ?? null),
    community: communityFor(services.config.community).name,
    paidBy: { name: viewer.member.name, email: viewer.member.email },
  };
}

/** Sends the receipt to the member's address again (a lost or deleted e-mail); answers where it went. */
export async function emailReceipt(services: AppServices, viewer: Viewer, paymentId: string): Promise<string> {
  const { payment, plan } = await ownPayment(services, viewer, paymentId);
  if (!paymentLine(payment, plan?.title ?? null).hasReceipt) {
    throw invalid("This payment did not go through: it has no receipt.");
  }
  const { subject, text } = receiptText({
    community: communityFor(services.config.community).name,
    name: viewer.member.name ?? viewer.member.username,
    payment,
    plan,
    baseUrl: services.config.baseUrl,
  });
  const to = viewer.member.email;
  await services.providers.mail.send({ to, subject, text, template: "payment-receipt" });
  return to;
}
