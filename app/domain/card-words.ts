import { humanize } from "./words";

/**
 * Card brands as the card networks write them. Stripe and the sandbox give lower-case codes
 * ("visa", "amex", "diners"); a brand no list names yet is read as words.
 */
const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  american_express: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  diners_club: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
  eftpos_au: "eftpos Australia",
  interac: "Interac",
};

/** "visa" → "Visa", "amex" → "American Express"; no brand is "Card". */
export function cardBrandName(brand: string | null | undefined): string {
  const code = brand?.trim();
  if (!code || code.toLowerCase() === "unknown") return "Card";
  return CARD_BRANDS[code.toLowerCase().replace(/[\s-]+/g, "_")] ?? humanize(code);
}

/** "Visa ending in 4242": a card as a member knows it. */
export function cardEnding(brand: string | null | undefined, last4: string): string {
  return `${cardBrandName(brand)} ending in ${last4}`;
}
