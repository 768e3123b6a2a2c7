import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { LOCK, xactLock } from "~/db/locks";
import { type mailings, nolEntries } from "~/db/schema";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import type { RoundService } from "~/domain/nol/service";
import type { LetterTrack } from "~/domain/mailing/tracking";
import { roundServiceOf } from "../nol/service.server";
import { ofVersion } from "../version-keys.server";

/**
 * The mailings' rows, and the one writer of a round's mailing fields (spec §3: the mailing
 * date, the tracking numbers, the proof of delivery and its day): each time a letter moves, the
 * member records a respondent's service or saves a mailing or proof step, the round is read
 * again through the one reading of service and its fields written from it, so the steps, the
 * API and the reminders read what the documents state (docs/decisions/057).
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

type Values = Record<string, unknown>;

/** A list with one place set, filled up to it (as the steps write theirs). */
function setAt<T>(list: T[], index: number, value: T, fill: T): T[] {
  const copy = [...list];
  while (copy.length < index) copy.push(fill);
  copy[index] = value;
  return copy;
}

/** The numbers of the envelopes standing now, by slot, and the first of them (the round's one number of spec §3). */
function numbers(service: RoundService) {
  const bySlot = Object.fromEntries(service.tracking.filter((t) => t.slot > 0).map((t) => [String(t.slot), t.number]));
  return { bySlot, first: service.tracking[0]?.number ?? null };
}

/** The app's letters standing for a respondent now, by slot. */
const letterIds = (service: RoundService) =>
  Object.fromEntries(
    service.respondents.flatMap((r) =>
      r.current?.letter?.letterId && r.current.status !== "cancelled" && r.current.status !== "failed"
        ? [[String(r.slot), r.current.letter.letterId]]
        : [],
    ),
  );

/**
 * Writes on the round's entry what the reading of its service says now. Runs inside the
 * caller's transaction, under the version's lock (taken here), so a step saved at the same
 * moment waits for it. A proof recorded once stays while a later round was made on it.
 */
export async function recordRound(
  tx: Tx,
  round: { entryId: string; round: number } & VersionKey,
): Promise<RoundService | null> {
  await lockVersion(tx, round);
  const db = tx as unknown as Database;
  const [entry] = await tx.select().from(nolEntries).where(eq(nolEntries.id, round.entryId));
  if (!entry) return null;
  const [creator] =
    entry.form === "NoLCreator2"
      ? [entry]
      : await tx
          .select()
          .from(nolEntries)
          .where(
            and(
              ofVersion(nolEntries, entry.userId, entry.causeCode, entry.descriptiveVersion),
              eq(nolEntries.form, "NoLCreator2"),
            ),
          );
  const r = round.round;
  const service = await roundServiceOf(db, { creator: creator ?? null, entry, round: r });
  const tracking = numbers(service);
  if (r <= NOTICE_ROUNDS) {
    const i = r - 1;
    const later = entry.nolTracking.slice(r).some(Boolean);
    const proven = service.complete || (later && Boolean(entry.nolProofOfDelivery[i]));
    const mail: Values = { ...(entry.mail ?? {}) };
    mail[`Tracking${r}`] = tracking.bySlot;
    if (tracking.first) mail[`Track${r}`] = tracking.first;
    else delete mail[`Track${r}`];
    mail[`Letters${r}`] = letterIds(service);
    if (service.mailedOn) mail.MailingDate = service.mailedOn;
    await tx
      .update(nolEntries)
      .set({
        mail,
        nolMailingDate: setAt(entry.nolMailingDate, i, service.mailedOn, null),
        nolProofOfDelivery: setAt(entry.nolProofOfDelivery, i, proven, false),
        nolDeliveryDate: setAt(
          entry.nolDeliveryDate,
          i,
          service.complete ? service.deliveredOn : proven ? (entry.nolDeliveryDate[i] ?? null) : null,
          null,
        ),
      })
      .where(eq(nolEntries.id, entry.id));
    return service;
  }
  const data: Values = { ...entry.data, tracking: tracking.bySlot, letters: letterIds(service) };
  await tx
    .update(nolEntries)
    .set({
      data,
      billTracking: tracking.first,
      billMailingDate: service.mailedOn,
      billProofOfDelivery: service.complete,
      billDeliveryDate: service.complete ? service.deliveredOn : null,
    })
    .where(eq(nolEntries.id, entry.id));
  return service;
}
