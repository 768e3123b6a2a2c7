import { and, asc, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { mailings } from "~/db/schema";
import { dayOfDate, type MailingState } from "~/domain/mailing/round-letters";
import { CANCEL_REFUSALS, cancelCheck } from "~/domain/mailing/tracking";
import type { VersionState } from "../nol/entries.server";
import type { UserRow } from "../viewer.server";
import { ofVersion } from "../version-keys.server";

/** A version's letters as a page shows them: each round's, by respondent, with what can be done with each. */

export type LetterView = {
  id: string;
  round: number;
  slot: number;
  /** The respondent's envelopes of the round in turn: 2 and on were mailed again. */
  envelope: number;
  to: string;
  state: MailingState;
  trackingNumber: string | null;
  costCents: number;
  /** Calendar days (YYYY-MM-DD), as the timeline writes them. */
  expectedDeliveryOn: string | null;
  mailedOn: string | null;
  deliveredOn: string | null;
  returnedOn: string | null;
  /** Why it came back or was refused, in the mail house's words. */
  reason: string | null;
  /** Until when the member may cancel it; null once they cannot. */
  cancelUntil: Date | null;
  /** Why it cannot be cancelled, as the page says it; null while it can. */
  cancelRefusal: string | null;
  /** Its cost was given back. */
  refunded: boolean;
  /** The mail house gave an electronic return receipt for it. */
  hasReturnReceipt: boolean;
};

const day = (at: Date | null) => (at ? dayOfDate(at) : null);

/**
 * Whether any round of the version has letters mailed from the app: their ids are written on
 * the round's entry (records.server.ts), so a page need not ask for the letters of a version
 * that has none.
 */
export function mailsFromApp(state: Pick<VersionState, "creator" | "bills">): boolean {
  const any = (value: unknown) => Boolean(value && typeof value === "object" && Object.keys(value).length > 0);
  const mail = (state.creator?.mail ?? {}) as Record<string, unknown>;
  return (
    Object.keys(mail).some((key) => /^Letters\d+$/.test(key) && any(mail[key])) ||
    state.bills.some((bill) => any((bill.data as { letters?: unknown }).letters))
  );
}

/** The member's letters of a version (of one round when given), by round and slot, at `now`. */
export async function versionLetters(
  services: AppServices,
  member: Pick<UserRow, "id">,
  version: { causeCode: string; version: string; round?: number },
  now = new Date(),
): Promise<LetterView[]> {
  const rows = await services.db
    .select()
    .from(mailings)
    .where(
      and(
        ofVersion(mailings, member.id, version.causeCode, version.version),
        ...(version.round === undefined ? [] : [eq(mailings.round, version.round)]),
      ),
    )
    .orderBy(asc(mailings.round), asc(mailings.slot), asc(mailings.envelope));
  return rows.map((row) => letterView(row, now));
}

/** Every letter of the member's, by cause and version ("TS|My version"), for the pages listing all their timelines. */
export async function memberLetters(services: AppServices, member: Pick<UserRow, "id">, now = new Date()) {
  const rows = await services.db
    .select()
    .from(mailings)
    .where(eq(mailings.userId, member.id))
    .orderBy(asc(mailings.round), asc(mailings.slot), asc(mailings.envelope));
  const byVersion = new Map<string, LetterView[]>();
  for (const row of rows) {
    const key = `${row.causeCode}|${row.descriptiveVersion}`;
    byVersion.set(key, [...(byVersion.get(key) ?? []), letterView(row, now)]);
  }
  return byVersion;
}

function letterView(row: typeof mailings.$inferSelect, now: Date): LetterView {
  const check = row.state === "sending" ? null : cancelCheck({ state: row.state, cancelUntil: row.sendDate }, now);
  return {
    id: row.id,
    round: row.round,
    slot: row.slot,
    envelope: row.envelope,
    to: row.toAddress.name,
    state: row.state,
    trackingNumber: row.trackingNumber,
    costCents: row.costCents,
    expectedDeliveryOn: row.expectedDeliveryDate,
    mailedOn: day(row.mailedAt),
    deliveredOn: day(row.deliveredAt),
    returnedOn: day(row.returnedAt),
    reason: row.reason,
    cancelUntil: check?.ok ? row.sendDate : null,
    // A letter cancelled or refused says so in its state: there is nothing to refuse.
    cancelRefusal: check === null || check.ok || check.why === "ended" ? null : CANCEL_REFUSALS[check.why],
    refunded: row.refundedAt !== null,
    hasReturnReceipt: row.returnReceiptAt !== null,
  };
}
