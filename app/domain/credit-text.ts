/**
 * What the pages say of notarize credits: plain texts and limits without the schema library,
 * so a page that shows them loads no zod at first (app/domain/credits.ts holds the rules).
 */

export type CreditReason = "purchase" | "grant" | "spend" | "refund";

export const NO_CREDIT_MESSAGE = "You have no notarize credit left: buy one to notarize this notice.";
export const SPEND_PENDING_MESSAGE =
  "This notice is being sent to the notary already: wait a moment, then refresh the page.";

/** "1 notarize credit", "3 notarize credits". */
export function creditsText(count: number): string {
  return `${count} notarize credit${count === 1 ? "" : "s"}`;
}

/** What a line of the credit history says. */
export function creditReasonText(reason: CreditReason, refunded: boolean): string {
  switch (reason) {
    case "purchase":
      return "Bought";
    case "grant":
      return "Granted by an admin";
    case "spend":
      return refunded ? "Notarize (given back)" : "Notarize";
    case "refund":
      return "Given back";
  }
}

export const GRANT_MAX = 100;

export const CREDIT_READY_MESSAGE = "Thank you: your notarize credit is ready. Notarize online spends it.";
