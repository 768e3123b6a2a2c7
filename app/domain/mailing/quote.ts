import { z } from "zod";
import { formatMoney } from "~/lib/format";

/**
 * What mailing a round's notice costs the member: one envelope per respondent, each sent by
 * USPS Certified Mail with an electronic return receipt, at the price per envelope the
 * community's settings name. The mail house's own charge is the community's affair; the member
 * pays the settings' price, shown before paying, envelope by envelope and in all.
 */

export const MAILING_SERVICE = "USPS Certified Mail with electronic return receipt";

/** The settings' price: cents per envelope, a whole number from 0 (the community pays) up. */
export const mailingPricesSchema = z.object({
  perEnvelopeCents: z.number().int().min(0).max(100_000),
  currency: z.literal("usd").default("usd"),
});
export type MailingPrices = z.output<typeof mailingPricesSchema>;

export type QuoteLine = {
  /** The respondent the envelope goes to. */
  recipient: string;
  service: typeof MAILING_SERVICE;
  cents: number;
};

export type MailingQuote = {
  currency: "usd";
  perEnvelopeCents: number;
  envelopes: number;
  totalCents: number;
  lines: QuoteLine[];
};

export class EmptyMailing extends Error {
  override name = "EmptyMailing";
  constructor() {
    super("Choose at least one respondent to mail the notice to");
  }
}

/** The quote for one envelope to each recipient named: its lines, and their sum. */
export function quoteMailing(prices: MailingPrices, recipients: readonly string[]): MailingQuote {
  if (recipients.length === 0) throw new EmptyMailing();
  const { perEnvelopeCents } = mailingPricesSchema.parse(prices);
  const lines = recipients.map((recipient): QuoteLine => ({
    recipient,
    service: MAILING_SERVICE,
    cents: perEnvelopeCents,
  }));
  return {
    currency: "usd",
    perEnvelopeCents,
    envelopes: lines.length,
    totalCents: perEnvelopeCents * lines.length,
    lines,
  };
}

/** The quote in words: "2 envelopes × $9.50 = $19.00". */
export function quoteWords(quote: MailingQuote): string {
  const count = `${quote.envelopes} ${quote.envelopes === 1 ? "envelope" : "envelopes"}`;
  const each = formatMoney(quote.perEnvelopeCents, quote.currency);
  return `${count} × ${each} = ${formatMoney(quote.totalCents, quote.currency)}`;
}
