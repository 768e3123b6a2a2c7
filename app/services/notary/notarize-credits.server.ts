import type { AppServices } from "~/context";
import type { NotaryTransaction } from "~/providers/notary/types";
import { attachSpend, refundSpend, spendCredit } from "../billing/credits.server";
import type { Viewer } from "../session.server";

/**
 * Where notarizing costs money, the notary's transaction is paid with one of the member's
 * credits: spent before it is asked for (null: nothing to pay), given back when the notary
 * refuses it or makes none.
 */
export async function spendForNotarize(
  services: AppServices,
  viewer: Viewer,
  noticeId: number,
): Promise<number | null> {
  if (!services.config.notarizeNeedsCredit) return null;
  return spendCredit(services.db, { userId: viewer.member.id, noticeId, actorUserId: viewer.user.id });
}

const REFUSED_NOTE = "The notary did not take the document";

/** The provider's refusal or outage: the credit comes back, and the error goes on. */
export function giveBackSpend(services: AppServices, spendId: number | null) {
  return async (error: unknown): Promise<never> => {
    if (spendId !== null) await refundSpend(services.db, spendId, REFUSED_NOTE);
    throw error;
  };
}

/** The spend names the transaction it paid for; no transaction made, and it is given back. */
export async function settleSpend(services: AppServices, spendId: number | null, made: NotaryTransaction | null) {
  if (spendId === null) return;
  if (made?.id) await attachSpend(services.db, spendId, made.id);
  else await refundSpend(services.db, spendId, REFUSED_NOTE);
}
