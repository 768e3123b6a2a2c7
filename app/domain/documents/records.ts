import type { NolForm } from "../nol/entries";
import { NOTICE_ROUNDS } from "../nol/rounds";

/**
 * Which notices a member version's entry stands for (spec §3 "Notice"): one claim per member,
 * cause and NoL version; one notice per round of it; each notice's notice_cf names the form
 * entry that holds the round.
 */

export type EntryForRecords = {
  form: NolForm;
  nolTracking: boolean[];
  tbValue: number | null;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The rounds an entry holds: a creator entry the notice rounds that were submitted (a round's
 * notice sets its tracking flag, spec §4 "NoL steps"), a true bill its own round (3 + n), a
 * billing profile none.
 */
export function noticeRoundsOf(entry: Pick<EntryForRecords, "form" | "nolTracking" | "tbValue">): number[] {
  if (entry.form === "NoLBilling") return entry.tbValue ? [NOTICE_ROUNDS + entry.tbValue] : [];
  if (entry.form !== "NoLCreator2") return [];
  return entry.nolTracking.slice(0, NOTICE_ROUNDS).flatMap((tracked, i) => (tracked ? [i + 1] : []));
}

const dateOf = (value: unknown): Date | null => {
  if (typeof value !== "string") return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time);
};

/** The form entry's own times: the hosted form's dates when it came from one, else when we stored it. */
export function entryTimes(entry: Pick<EntryForRecords, "data" | "createdAt" | "updatedAt">): {
  created: Date;
  updated: Date;
} {
  const meta = (entry.data.Entry ?? {}) as { DateCreated?: unknown; DateUpdated?: unknown };
  return { created: dateOf(meta.DateCreated) ?? entry.createdAt, updated: dateOf(meta.DateUpdated) ?? entry.updatedAt };
}

/** The claim's exhibit reference, printed on each of its documents: "TS-000042". */
export function exhibitReference(causeCode: string, claimId: number): string {
  return `${causeCode}-${String(claimId).padStart(6, "0")}`;
}
