import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { payments, plans, users } from "~/db/schema";
import { paymentTitle } from "~/domain/billing";
import { communityFor } from "~/domain/community";
import { cardEnding } from "~/domain/card-words";
import { formatDate, formatMoney } from "~/lib/format";
import type { JobDefinition } from "../queue.server";

/** The e-mails money sends: a receipt for each payment, a notice for each failed renewal. */

async function paymentWithPayer(services: AppServices, paymentId: string) {
  const [row] = await services.db
    .select({ payment: payments, plan: plans, user: users })
    .from(payments)
    .leftJoin(plans, eq(plans.id, payments.planId))
    .leftJoin(users, eq(users.id, payments.userId))
    .where(eq(payments.id, paymentId));
  if (!row) return null;
  const to = row.user?.email ?? row.payment.email;
  return to ? { ...row, to, name: row.user?.name ?? row.user?.username ?? null } : null;
}

const what = (payment: typeof payments.$inferSelect, plan: typeof plans.$inferSelect | null) =>
  paymentTitle(payment.kind, plan?.title);

/** The receipt's text: what was paid, when, by which card, for which period. */
export function receiptText(input: {
  community: string;
  name: string | null;
  payment: typeof payments.$inferSelect;
  plan: typeof plans.$inferSelect | null;
  baseUrl: string;
}): { subject: string; text: string } {
  const { payment, plan } = input;
  const amount = formatMoney(payment.amountCents, payment.currency);
  const lines = [
    `Hello${input.name ? ` ${input.name}` : ""},`,
    "",
    `Thank you: we received ${amount} for ${what(payment, plan)}.`,
    "",
    `Receipt: ${payment.id}`,
    `Date: ${formatDate(payment.createdAt)}`,
    `Amount: ${amount}`,
  ];
  if (payment.listAmountCents !== null && payment.listAmountCents > payment.amountCents) {
    lines.push(`Price before the coupon: ${formatMoney(payment.listAmountCents, payment.currency)}`);
  }
  if (payment.periodStart && payment.periodEnd) {
    lines.push(`Period: ${formatDate(payment.periodStart)} to ${formatDate(payment.periodEnd)}`);
  }
  if (payment.cardLast4) lines.push(`Card: ${cardEnding(payment.cardBrand, payment.cardLast4)}`);
  lines.push("", `Your payments: ${input.baseUrl}/profile/billing`, "", input.community);
  return { subject: `Your receipt from ${input.community}`, text: lines.join("\n") };
}

export async function sendReceipt(services: AppServices, paymentId: string): Promise<void> {
  const row = await paymentWithPayer(services, paymentId);
  if (!row || row.payment.status === "failed" || row.payment.receiptSentAt) return;
  const community = communityFor(services.config.community).name;
  const { subject, text } = receiptText({ ...row, community, baseUrl: services.config.baseUrl });
  // Handed to the mail provider (which keeps it in the outbox) before it is marked sent: a
  // failure here retries the job rather than losing the receipt.
  await services.providers.mail.send({ to: row.to, subject, text, template: "payment-receipt" });
  await services.db
    .update(payments)
    .set({ receiptSentAt: new Date() })
    .where(and(eq(payments.id, paymentId), isNull(payments.receiptSentAt)));
}

export async function sendPaymentFailedNotice(services: AppServices, paymentId: string): Promise<void> {
  const row = await paymentWithPayer(services, paymentId);
  if (!row) return;
  const community = communityFor(services.config.community).name;
  const amount = formatMoney(row.payment.amountCents, row.payment.currency);
  await services.providers.mail.send({
    to: row.to,
    template: "payment-failed",
    subject: "Your membership payment did not go through",
    text: [
      `Hello${row.name ? ` ${row.name}` : ""},`,
      "",
      `We could not take ${amount} for ${what(row.payment, row.plan)}${row.payment.failureMessage ? `: ${row.payment.failureMessage}` : "."}`,
      "",
      `Update your card to keep your membership: ${services.config.baseUrl}/profile/billing`,
      "",
      community,
    ].join("\n"),
  });
}

const paymentJob = z.object({ paymentId: z.string().uuid() });

export const paymentReceiptJob = {
  name: "payment-receipt",
  data: paymentJob,
  retry: { limit: 5, delaySeconds: 60 },
  async run(services, { paymentId }) {
    await sendReceipt(services, paymentId);
  },
} satisfies JobDefinition<{ paymentId: string }>;

export const paymentFailedNoticeJob = {
  name: "payment-failed-notice",
  data: paymentJob,
  retry: { limit: 5, delaySeconds: 60 },
  async run(services, { paymentId }) {
    await sendPaymentFailedNotice(services, paymentId);
  },
} satisfies JobDefinition<{ paymentId: string }>;
