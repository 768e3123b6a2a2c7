import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { nolEntries, respondents } from "~/db/schema";
import { notFound } from "~/domain/errors";
import { seamlessLink } from "~/domain/nol/addresses";
import { billLines, joinSlotGroups, slotsOpenIn, type BillFlags, type BillLine } from "~/domain/nol/billing";
import type { EntryFacts } from "~/domain/nol/entries";
import type { Recipient } from "~/domain/nol/step-form";
import { nextStep, type Step } from "~/domain/nol/steps";

/** The member versions: reading a member's entries and what the rules make of them. */

export type EntryRow = typeof nolEntries.$inferSelect;

/** The owner's entries (of one cause), in version, form and bill order. */
export async function entriesOf(db: Database, ownerId: string, causeCode?: string | null): Promise<EntryRow[]> {
  return causeCode
    ? entryQuery(db, "entries_of_owner_cause").execute({ ownerId, causeCode })
    : entryQuery(db, "entries_of_owner").execute({ ownerId });
}

/** The entries' order: version, form, bill, then when each was made. */
export const ENTRY_ORDER = [
  asc(nolEntries.descriptiveVersion),
  asc(nolEntries.formId),
  asc(nolEntries.tbValue),
  asc(nolEntries.createdAt),
];

/** The entries' two queries: all of an owner's, and those of one cause. */
const ENTRY_QUERIES = {
  entries_of_owner: (db: Database, name: string) =>
    db
      .select()
      .from(nolEntries)
      .where(eq(nolEntries.userId, sql.placeholder("ownerId")))
      .orderBy(...ENTRY_ORDER)
      .prepare(name),
  entries_of_owner_cause: (db: Database, name: string) =>
    db
      .select()
      .from(nolEntries)
      .where(
        and(eq(nolEntries.userId, sql.placeholder("ownerId")), eq(nolEntries.causeCode, sql.placeholder("causeCode"))),
      )
      .orderBy(...ENTRY_ORDER)
      .prepare(name),
};
type EntryQueries = typeof ENTRY_QUERIES;

/** An entries query, prepared once for each database it runs on: every NoL page reads one. */
function entryQuery<K extends keyof EntryQueries>(db: Database, kind: K): ReturnType<EntryQueries[K]> {
  return preparedQuery(db, kind, ENTRY_QUERIES[kind] as (db: Database, name: string) => ReturnType<EntryQueries[K]>);
}

/** One of the owner's entries: another member's and a missing one are the same not-found. */
export async function requireOwnEntry(db: Database, ownerId: string, entryId: string): Promise<void> {
  const [row] = await db
    .select({ id: nolEntries.id })
    .from(nolEntries)
    .where(and(eq(nolEntries.id, entryId), eq(nolEntries.userId, ownerId)));
  if (!row) throw notFound("That entry is not one of this member's");
}

export async function respondentsOf(db: Database, entryIds: string[]) {
  if (entryIds.length === 0) return [];
  return db.select().from(respondents).where(inArray(respondents.entryId, entryIds)).orderBy(respondents.slot);
}

/** An entry's own links, or its seamless-page links when the built-in forms made it. */
export function linksOf(row: EntryRow) {
  return {
    edit_link: row.editLink ?? seamlessLink(row, row.editHash),
    view_link: row.viewLink ?? seamlessLink(row, row.viewHash),
  };
}

/** The parts of an entry the rules read. */
export function facts(row: EntryRow): EntryFacts {
  return {
    id: row.id,
    form: row.form,
    cause: row.causeCode,
    descriptive_version: row.descriptiveVersion,
    updated: row.updatedAt.toISOString(),
    ...linksOf(row),
    nol_tracking: row.nolTracking,
    nol_mailing_date: row.nolMailingDate,
    nol_proof_of_delivery: row.nolProofOfDelivery,
    tb_value: row.tbValue,
    bill_mailing_date: row.billMailingDate,
    bill_proof_of_delivery: row.billProofOfDelivery,
  };
}

/** A member version as the API sends it (spec §3 "NoL entry"). */
export function entryJson(row: EntryRow, username: string) {
  return {
    id: row.id,
    form: row.form,
    username,
    cause: row.causeCode,
    descriptive_version: row.descriptiveVersion,
    updated: row.updatedAt.toISOString(),
    round: row.round,
    ...linksOf(row),
    nol_tracking: row.nolTracking,
    nol_mailing_date: row.nolMailingDate,
    nol_proof_of_delivery: row.nolProofOfDelivery,
    continue_respondents: row.continueRespondents,
    continue_extra_respondents_r2: row.continueExtraRespondentsR2,
    continue_extra_respondents_r3: row.continueExtraRespondentsR3,
    resp_status: row.respStatus,
    resp_status2: row.respStatus2,
    resp_status3: row.respStatus3,
    tb_value: row.tbValue,
    tb_name: row.tbName,
    bill_mailing_date: row.billMailingDate,
    bill_proof_of_delivery: row.billProofOfDelivery,
    bill_tracking: row.billTracking,
    preparation_date: row.preparationDate,
    preparation_date_1tb: row.preparationDate1tb,
    administrative_judgment: row.administrativeJudgment,
    administrative_judgment_1tb: row.administrativeJudgment1tb,
    escalation_fee: row.escalationFee,
    true_bill_total: row.trueBillTotal,
    first_true_bill_total: row.firstTrueBillTotal,
    profile: row.profile ?? null,
    mail: row.mail ?? null,
    [row.editHash]: true,
  };
}
export type NolEntryJson = ReturnType<typeof entryJson>;

export type VersionState = {
  version: string;
  creator: EntryRow | null;
  billingProfile: EntryRow | null;
  bills: EntryRow[];
  step: Step;
};

/** A version's entries and its next step. */
export function versionState(rows: EntryRow[], version: string): VersionState {
  const mine = rows.filter((r) => r.descriptiveVersion === version);
  const creator = mine.find((r) => r.form === "NoLCreator2") ?? null;
  const billingProfile = mine.find((r) => r.form === "NoLProfileBilling") ?? null;
  const bills = mine.filter((r) => r.form === "NoLBilling").sort((a, b) => (a.tbValue ?? 0) - (b.tbValue ?? 0));
  const latest = bills.at(-1) ?? null;
  const step = nextStep({
    creator: creator ? facts(creator) : null,
    hasBillingProfile: billingProfile !== null,
    trueBill: latest ? facts(latest) : null,
  });
  return { version, creator, billingProfile, bills, step };
}

/** The slots the latest true bill bills (spec §5), as its save kept them. */
export function billedSlotsOf(bill: EntryRow | undefined): number[] | null {
  const slots = (bill?.data as { billedSlots?: unknown } | undefined)?.billedSlots;
  return Array.isArray(slots) && slots.every((slot) => typeof slot === "number") ? slots : null;
}

/**
 * Who a mailing step's envelopes go to, each with a tracking number of its own: the
 * respondents named up to the round (a notice), or those the true bill bills. No one for the
 * other steps.
 */
export async function mailingRecipients(db: Database, state: VersionState): Promise<Recipient[]> {
  const { step, creator } = state;
  if (!creator || (step.kind !== "mailing" && step.kind !== "true-bill-mailing")) return [];
  const billed = step.kind === "true-bill-mailing" ? (billedSlotsOf(state.bills.at(-1)) ?? []) : null;
  const named = await respondentsOf(db, [creator.id]);
  return named
    .filter((r) => (billed ? billed.includes(r.slot) : r.slot <= slotsOpenIn(step.round ?? 1)))
    .map((r) => ({ slot: r.slot, name: r.name }));
}

/** The versions among the rows, in their order. */
export function versionsOf(rows: EntryRow[]): string[] {
  return [...new Set(rows.map((r) => r.descriptiveVersion))];
}

/** The continue and status flags a bill recorded, as one list per slot. */
export function billFlagsOf(bill: EntryRow | undefined): BillFlags | null {
  if (!bill) return null;
  return {
    continue: joinSlotGroups(
      [bill.continueRespondents, bill.continueExtraRespondentsR2, bill.continueExtraRespondentsR3],
      true,
    ),
    status: joinSlotGroups([bill.respStatus, bill.respStatus2, bill.respStatus3], true),
  };
}

/** Who the version's next true bill bills, from its respondents and the prior bill (spec §5). */
export async function nextBillLines(db: Database, state: VersionState): Promise<BillLine[]> {
  if (state.step.kind !== "true-bill" || !state.creator) return [];
  const named = await respondentsOf(db, [state.creator.id]);
  return billLines(
    named.map((r) => ({ slot: r.slot, name: r.name, type: r.type })),
    (state.step.round ?? 4) - 3,
    billFlagsOf(state.bills.at(-1)),
  );
}
