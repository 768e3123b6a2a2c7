import type { EntryFacts } from "./entries";
import { SETUP_BILLING, trueBillName } from "./rounds";

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
