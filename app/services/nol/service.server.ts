import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { mailings, serviceRecords } from "~/db/schema";
import { postalLines } from "~/domain/mailing/address";
import { addressLine, slotsOpenIn } from "~/domain/nol/billing";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import {
  roundService,
  typedRecords,
  type Addressee,
  type AppLetter,
  type HandRecord,
  type RoundService,
  type TypedRound,
} from "~/domain/nol/service";
import { findNotice } from "../documents/notices.server";
import { billedSlotsOf, respondentsOf, type EntryRow, type VersionState } from "./entries.server";

/**
 * Reads a version's rounds through the one reading of service (domain/nol/service.ts): its
 * respondents, the letters the app mailed and the member's records, one query each.
 */

type MailingRow = typeof mailings.$inferSelect;
type RecordRow = typeof serviceRecords.$inferSelect;
type Named = { slot: number; name: string; type: string; address: Parameters<typeof addressLine>[0] };
type Rounds = Pick<VersionState, "creator" | "bills">;

/** The entry a round keeps its mailing on: the creator entry for a notice, the true bill's own. */
export function serviceEntry(state: Rounds, round: number): EntryRow | null {
  if (round <= NOTICE_ROUNDS) return state.creator;
  return state.bills.find((bill) => bill.tbValue === round - NOTICE_ROUNDS) ?? null;
}

const byObject = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""),
      )
    : {};

/** What the round's steps kept on its entry. */
export function typedRound(entry: EntryRow, round: number): TypedRound {
  if (round <= NOTICE_ROUNDS) {
    const i = round - 1;
    const single = entry.mail?.[`Track${round}`];
    return {
      mailedOn: entry.nolMailingDate[i] ?? null,
      tracking: byObject(entry.mail?.[`Tracking${round}`]),
      single: typeof single === "string" && single ? single : null,
      delivered: Boolean(entry.nolProofOfDelivery[i]),
      deliveredOn: entry.nolDeliveryDate[i] ?? null,
    };
  }
  return {
    mailedOn: entry.billMailingDate,
    tracking: byObject((entry.data as { tracking?: unknown }).tracking),
    single: entry.billTracking,
    delivered: Boolean(entry.billProofOfDelivery),
    deliveredOn: entry.billDeliveryDate,
  };
}

/** Who a round is addressed to: a notice the respondents of the slots open by it, a true bill those it bills. */
export function addressedIn(named: readonly Named[], entry: EntryRow, round: number): Addressee[] {
  const billed = round > NOTICE_ROUNDS ? billedSlotsOf(entry) : null;
  return named
    .filter((r) => (round <= NOTICE_ROUNDS ? r.slot <= slotsOpenIn(round) : !billed || billed.includes(r.slot)))
    .map((r) => ({ slot: r.slot, name: r.name, type: r.type, address: addressLine(r.address) }))
    .sort((a, b) => a.slot - b.slot);
}

export const appLetterOf = (row: MailingRow): AppLetter => ({
  id: row.id,
  letterId: row.letterId,
  slot: row.slot,
  state: row.state,
  trackingNumber: row.trackingNumber,
  mailedAt: row.mailedAt,
  deliveredAt: row.deliveredAt,
  returnedAt: row.returnedAt,
  reason: row.reason,
  address: postalLines(row.toAddress).slice(1).join(", "),
  returnReceipt: row.returnReceiptAt !== null,
  createdAt: row.createdAt,
});

export const handRecordOf = (row: RecordRow): HandRecord => ({
  id: row.id,
  slot: row.slot,
  kind: row.kind,
  day: row.day,
  trackingNumber: row.trackingNumber,
  reason: row.reason,
  createdAt: row.createdAt,
});

/** The rounds a version has made, each with its entry. */
function roundsOf(state: Rounds): { round: number; entry: EntryRow }[] {
  const rounds: { round: number; entry: EntryRow }[] = [];
  if (state.creator)
    for (let round = 1; round <= NOTICE_ROUNDS; round += 1)
      if (state.creator.nolTracking[round - 1]) rounds.push({ round, entry: state.creator });
  for (const bill of state.bills) if (bill.tbValue) rounds.push({ round: NOTICE_ROUNDS + bill.tbValue, entry: bill });
  return rounds;
}

/** Each made round's service, by round, read with one query of each table. */
export async function versionService(db: Database, state: Rounds): Promise<Map<number, RoundService>> {
  const rounds = roundsOf(state);
  const result = new Map<number, RoundService>();
  if (rounds.length === 0) return result;
  const ids = [...new Set(rounds.map((r) => r.entry.id))];
  const [named, letters, records] = await Promise.all([
    state.creator ? respondentsOf(db, [state.creator.id]) : Promise.resolve([]),
    db.select().from(mailings).where(inArray(mailings.entryId, ids)),
    db.select().from(serviceRecords).where(inArray(serviceRecords.entryId, ids)).orderBy(asc(serviceRecords.id)),
  ]);
  for (const { round, entry } of rounds) {
    result.set(
      round,
      roundService({
        round,
        addressed: addressedIn(named, entry, round),
        letters: letters.filter((l) => l.entryId === entry.id && l.round === round).map(appLetterOf),
        records: records.filter((r) => r.entryId === entry.id && r.round === round).map(handRecordOf),
        typed: typedRound(entry, round),
      }),
    );
  }
  return result;
}

/** One round's service, read from its entry (and the version's creator entry for its respondents). */
export async function roundServiceOf(
  db: Database,
  input: { creator: EntryRow | null; entry: EntryRow; round: number },
): Promise<RoundService> {
  const { entry, round } = input;
  const [named, letters, records] = await Promise.all([
    input.creator ? respondentsOf(db, [input.creator.id]) : Promise.resolve([]),
    db.select().from(mailings).where(eq(mailings.entryId, entry.id)),
    db.select().from(serviceRecords).where(eq(serviceRecords.entryId, entry.id)).orderBy(asc(serviceRecords.id)),
  ]);
  const addressed = addressedIn(named, entry, round);
  const ofRound = {
    letters: letters.filter((l) => l.round === round).map(appLetterOf),
    records: records.filter((r) => r.round === round).map(handRecordOf),
  };
  return roundService({ round, addressed, ...ofRound, typed: typedRound(entry, round) });
}

/**
 * Adds the member's records of a round. A round kept only as its steps typed it first gets
 * those as records, so what was typed before stays part of the reading.
 */
export async function addServiceRecords(
  db: Database,
  input: { userId: string; creator: EntryRow | null; entry: EntryRow; round: number; recordedBy: string | null },
  records: readonly Pick<HandRecord, "slot" | "kind" | "day" | "trackingNumber" | "reason">[],
): Promise<void> {
  const { entry, round } = input;
  const kept = await db
    .select({ id: serviceRecords.id })
    .from(serviceRecords)
    .where(and(eq(serviceRecords.entryId, entry.id), eq(serviceRecords.round, round)))
    .then((rows) => rows.length);
  const before: Pick<HandRecord, "slot" | "kind" | "day" | "trackingNumber" | "reason">[] = [];
  if (kept === 0) {
    const named = input.creator ? await respondentsOf(db, [input.creator.id]) : [];
    const letters = await db.select().from(mailings).where(eq(mailings.entryId, entry.id));
    before.push(
      ...typedRecords({
        addressed: addressedIn(named, entry, round),
        letters: letters.filter((l) => l.round === round).map(appLetterOf),
        typed: typedRound(entry, round),
      }),
    );
  }
  const rows = [...before, ...records];
  if (rows.length === 0) return;
  const now = Date.now();
  await db.insert(serviceRecords).values(
    rows.map((r, i) => ({
      userId: input.userId,
      entryId: entry.id,
      round,
      slot: r.slot,
      kind: r.kind,
      day: r.day,
      trackingNumber: r.trackingNumber,
      reason: r.reason,
      recordedBy: input.recordedBy,
      // In the order given, each after the one before it.
      createdAt: new Date(now + i),
    })),
  );
}

const SERVICE_STEPS = new Set(["mailing", "proof", "true-bill-mailing", "true-bill-proof"]);

/** The service of the round a mailing or proof step finishes; null for the other steps. */
export async function stepService(db: Database, state: VersionState): Promise<RoundService | null> {
  const round = state.step.round;
  if (!round || !SERVICE_STEPS.has(state.step.kind)) return null;
  const entry = serviceEntry(state, round);
  return entry ? roundServiceOf(db, { creator: state.creator, entry, round }) : null;
}

/** The day (UTC) the round's notice was made: no envelope of it went out before. */
export async function noticeDayOf(db: Database, ownerId: string, state: VersionState): Promise<string | null> {
  const round = state.step.round;
  const entry = round ? serviceEntry(state, round) : null;
  if (!round || !entry) return null;
  const record = await findNotice(
    db,
    { id: ownerId },
    { cf_number: entry.entryNumber, cf_version: entry.descriptiveVersion, round_cnt: round },
  );
  return record ? record.notice.createdAt.toISOString().slice(0, 10) : null;
}
