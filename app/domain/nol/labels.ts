import type { EntryFacts } from "./entries";
import { NOTICE_ROUNDS, SETUP_BILLING, trueBillName } from "./rounds";
import { roundName } from "./timeline";

export type EntryLabel = { label: string; status: string | null; readOnly: boolean; round: string | null };

/** spec §4 "Entry labels". */
export function entryLabel(entry: Pick<EntryFacts, "form" | "tb_value">): EntryLabel {
  // "Billing profile: 'Billing Profile', status Active, not read-only, round 'Setup Billing'."
  if (entry.form === "NoLProfileBilling")
    return { label: "Billing Profile", status: "Active", readOnly: false, round: SETUP_BILLING };
  // "True bill: '<Ordinal> True Bill'."
  if (entry.form === "NoLBilling" && entry.tb_value) {
    return { label: trueBillName(entry.tb_value), status: null, readOnly: false, round: trueBillName(entry.tb_value) };
  }
  // "Otherwise: 'NoL Creator', read-only."
  return { label: "NoL Creator", status: null, readOnly: true, round: null };
}

/**
 * The name a page gives an entry. The spec's label of the notice creator's entry, 'NoL
 * Creator', names the form, not what the member made: pages name it by its notices instead,
 * "Round 1 Notice of Liability" up to the last notice round it holds ("… to Round 2 Notice of
 * Fault"). A billing profile and a true bill keep their labels.
 */
export function entryName(entry: Pick<EntryFacts, "form" | "tb_value" | "nol_tracking">): string {
  if (entry.form !== "NoLCreator2") return entryLabel(entry).label;
  const made = Math.min(entry.nol_tracking.filter(Boolean).length, NOTICE_ROUNDS);
  return made <= 1 ? roundName(1) : `${roundName(1)} to ${roundName(made)}`;
}

/**
 * Whether a round's proof of delivery has come, as its step's tick box asks it ("The proof of
 * delivery has arrived"), under a "Proof of delivery" heading.
 */
export function deliveredWords(delivered: boolean): string {
  return delivered ? "Arrived" : "Not yet";
}
