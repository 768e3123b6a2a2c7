import { and, asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { LOCK, xactLock } from "~/db/locks";
import { mailings, nolEntries } from "~/db/schema";
import { roundDeliveredOn, roundMailedOn, roundTracking, type RoundLetter } from "~/domain/mailing/round-letters";
import type { LetterTrack } from "~/domain/mailing/tracking";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";

/**
 * The mailings' rows, and what their letters write on the round they mail: the tracking numbers
 * and letter ids when the mail house takes them, the mailing date when USPS takes the first, the
 * proof of delivery when the last is delivered, in the same fields the mailing and proof steps
 * write (save-step.server.ts), so the timeline, the documents and the reminders read them as
 * typed ones.
 */

export type MailingRow = typeof mailings.$inferSelect;
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The version a letter belongs to: its step writes wait for each other under one lock. */
export type VersionKey = { userId: string; causeCode: string; descriptiveVersion: string };

export const lockVersion = (tx: Tx, key: VersionKey) =>
  tx.execute(xactLock(LOCK.versionStep, `${key.userId}|${key.causeCode}|${key.descriptiveVersion}`));

/** The letter's track as the tracking rules read it. */
export function trackOfRow(row: MailingRow): LetterTrack {
  return {
    state: row.state === "sending" ? "created" : row.state,
    mailedAt: row.mailedAt,
    deliveredAt: row.deliveredAt,
    returnedAt: row.returnedAt,
    reason: row.reason,
    lastEventAt: row.lastEventAt,
  };
}

const roundLetterOf = (row: MailingRow): RoundLetter => ({
  slot: row.slot,
  state: row.state,
  trackingNumber: row.trackingNumber,
  mailedAt: row.mailedAt,
  deliveredAt: row.deliveredAt,
});

type Values = Record<string, unknown>;

/** A list with one place set, filled up to it (as the steps write theirs). */
function setAt<T>(list: T[], index: number, value: T, fill: T): T[] {
  const copy = [...list];
  while (copy.length < index) copy.push(fill);
  copy[index] = value;
  return copy;
}

const bySlotOf = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};

/** The slots' numbers kept before, those of this round's letters replaced by what the letters say now. */
function mergedTracking(kept: Record<string, string>, ours: readonly MailingRow[], letters: readonly RoundLetter[]) {
  const mine = new Set(ours.map((row) => String(row.slot)));
  const merged = Object.fromEntries(Object.entries(kept).filter(([slot]) => !mine.has(slot)));
  Object.assign(merged, roundTracking(letters));
  const slots = Object.keys(merged).sort((a, b) => Number(a) - Number(b));
  return { bySlot: Object.fromEntries(slots.map((slot) => [slot, merged[slot]!])), first: merged[slots[0] ?? ""] };
}

const letterIds = (ours: readonly MailingRow[]) =>
  Object.fromEntries(
    ours
      .filter((row) => row.letterId && row.state !== "cancelled" && row.state !== "failed")
      .map((row) => [String(row.slot), row.letterId!]),
  );

/** The earlier of a recorded day and the letters' one: a day typed before stays when it is earlier. */
const earlier = (recorded: string | null | undefined, ours: string | null) =>
  ours && (!recorded || ours < recorded) ? ours : (recorded ?? null);

/**
 * Writes on the round's entry what its letters say now. Runs inside the caller's transaction,
 * under the version's lock (taken here), so a step saved at the same moment waits for it.
 */
export async function recordRound(tx: Tx, letter: Pick<MailingRow, "entryId" | "round"> & VersionKey): Promise<void> {
  await lockVersion(tx, letter);
  const ours = await tx
    .select()
    .from(mailings)
    .where(and(eq(mailings.entryId, letter.entryId), eq(mailings.round, letter.round)))
    .orderBy(asc(mailings.slot));
  const [entry] = await tx.select().from(nolEntries).where(eq(nolEntries.id, letter.entryId));
  if (!entry) return;
  const letters = ours.map(roundLetterOf);
  const mailedOn = roundMailedOn(letters);
  const deliveredOn = roundDeliveredOn(letters);
  const r = letter.round;
  if (r <= NOTICE_ROUNDS) {
    const mail: Values = { ...(entry.mail ?? {}) };
    const tracking = mergedTracking(bySlotOf(mail[`Tracking${r}`]), ours, letters);
    mail[`Tracking${r}`] = tracking.bySlot;
    if (tracking.first) mail[`Track${r}`] = tracking.first;
    else delete mail[`Track${r}`];
    mail[`Letters${r}`] = letterIds(ours);
    const i = r - 1;
    const mailingDate = earlier(entry.nolMailingDate[i], mailedOn);
    if (mailingDate && mailingDate !== entry.nolMailingDate[i]) mail.MailingDate = mailingDate;
    const proven = Boolean(entry.nolProofOfDelivery[i]);
    await tx
      .update(nolEntries)
      .set({
        mail,
        ...(mailingDate ? { nolMailingDate: setAt(entry.nolMailingDate, i, mailingDate, null) } : {}),
        ...(deliveredOn && !proven
          ? {
              nolProofOfDelivery: setAt(entry.nolProofOfDelivery, i, true, false),
              nolDeliveryDate: setAt(entry.nolDeliveryDate, i, deliveredOn, null),
            }
          : {}),
      })
      .where(eq(nolEntries.id, entry.id));
    return;
  }
  const data: Values = { ...entry.data };
  const tracking = mergedTracking(bySlotOf(data.tracking), ours, letters);
  data.tracking = tracking.bySlot;
  data.letters = letterIds(ours);
  await tx
    .update(nolEntries)
    .set({
      data,
      billTracking: tracking.first ?? null,
      billMailingDate: earlier(entry.billMailingDate, mailedOn),
      ...(deliveredOn && !entry.billProofOfDelivery
        ? { billProofOfDelivery: true, billDeliveryDate: deliveredOn }
        : {}),
    })
    .where(eq(nolEntries.id, entry.id));
}
