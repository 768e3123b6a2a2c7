import { and, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { mailings } from "~/db/schema";
import { notFound } from "~/domain/errors";
import { CANCEL_REFUSALS, cancelCheck } from "~/domain/mailing/tracking";
import { isProviderError } from "~/providers/errors";
import type { UserRow } from "../viewer.server";
import { applyMailEvent } from "./events.server";

/**
 * Cancelling a letter before the mail house prints it. The refund is the payments' affair: the
 * answer names what is owed back, under a key that is the same however often the letter is
 * cancelled, so whatever pays it pays it once.
 */

export type MailingRefund = {
  /** One per letter: a repeated cancel names the same refund. */
  key: string;
  mailingId: string;
  cents: number;
  currency: "usd";
};

/** The letter cancelled, as the member's e-mail and the audit log name it. */
export type CancelledLetter = { id: string; round: number; slot: number; to: string; version: string };

/** Cancelled: `first` when this request cancelled it (a repeat finds it cancelled already). */
export type CancelOutcome =
  | { outcome: "cancelled"; refund: MailingRefund; first: boolean; letter: CancelledLetter }
  | { outcome: "refused"; message: string; refund: null };

const BEING_SENT = "This letter is being sent: try again in a minute.";

/**
 * Cancels the member's letter while it can be (created, before its send date, at the mail
 * house as on our side). The mail house may refuse still (its clock passed the deadline first):
 * its words are the answer, and nothing is owed back. A mail house that does not answer throws
 * (MailHouseUnavailable) with nothing changed.
 */
export async function cancelLetter(
  services: AppServices,
  member: Pick<UserRow, "id">,
  mailingId: string,
  now = new Date(),
): Promise<CancelOutcome> {
  const [row] = await services.db
    .select()
    .from(mailings)
    .where(and(eq(mailings.id, mailingId), eq(mailings.userId, member.id)));
  if (!row) throw notFound("No such letter");
  const refund: MailingRefund = {
    key: `mailing-refund:${row.id}`,
    mailingId: row.id,
    cents: row.costCents,
    currency: "usd",
  };
  const letter = {
    id: row.id,
    round: row.round,
    slot: row.slot,
    to: row.toAddress.name,
    version: row.descriptiveVersion,
  };
  if (row.state === "cancelled") return { outcome: "cancelled", refund, first: false, letter };
  if (row.state === "sending" || !row.letterId) return { outcome: "refused", message: BEING_SENT, refund: null };
  const check = cancelCheck({ state: row.state, cancelUntil: row.sendDate }, now);
  if (!check.ok) return { outcome: "refused", message: CANCEL_REFUSALS[check.why], refund: null };
  try {
    await services.providers.mailhouse.cancelLetter(row.letterId);
  } catch (error) {
    if (isProviderError(error, "mail_refused")) return { outcome: "refused", message: error.message, refund: null };
    throw error;
  }
  await applyMailEvent(services, {
    id: `${row.letterId}:cancelled`,
    provider: row.provider,
    providerType: "member.cancelled",
    letterId: row.letterId,
    state: "cancelled",
    reason: null,
    occurredAt: now,
  });
  return { outcome: "cancelled", refund, first: true, letter };
}
