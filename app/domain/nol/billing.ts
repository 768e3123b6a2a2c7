import type { NolForm } from "./entries";

/** spec §9 "Respondent slots: 16 in total (8 in the first round, 4 extra in round 2, 4 extra in round 3)." */
export const RESPONDENT_SLOTS = [
  { round: 1, slots: 8 },
  { round: 2, slots: 4 },
  { round: 3, slots: 4 },
] as const;
export const TOTAL_RESPONDENT_SLOTS = 16;

/** The slot numbers (1–16) and the round that opens each. */
export function respondentSlots(): { slot: number; round: 1 | 2 | 3 }[] {
  const slots: { slot: number; round: 1 | 2 | 3 }[] = [];
  for (const { round, slots: count } of RESPONDENT_SLOTS) {
    for (let i = 0; i < count; i += 1) slots.push({ slot: slots.length + 1, round });
  }
  return slots;
}

/** The slots a member may fill in a round: round 1 → 1–8, round 2 → 1–12, round 3 → 1–16. */
export function slotsOpenIn(round: number): number {
  return RESPONDENT_SLOTS.filter((r) => r.round <= round).reduce((n, r) => n + r.slots, 0);
}

/** "A new bill is created only for the billing form, with no entry selected, when a bill already exists for the version." */
export function createsNewBill(input: {
  form: NolForm;
  selectedEntryId: string | null;
  billExistsForVersion: boolean;
}): boolean {
  return input.form === "NoLBilling" && input.selectedEntryId === null && input.billExistsForVersion;
}

/** "Repeat-billing flags for respondents are false when the respondent's continue flag or status is false." */
export function repeatBillingFlags(continueFlags: boolean[], statusFlags: boolean[]): boolean[] {
  const length = Math.max(continueFlags.length, statusFlags.length);
  return Array.from({ length }, (_, i) => Boolean(continueFlags[i]) && Boolean(statusFlags[i]));
}

/** "Skip-bill applies to Joinder respondents when the true bill value is 3 or above 7." */
export function skipBill(respondentType: string, trueBillValue: number): boolean {
  return respondentType === "Joinder" && (trueBillValue === 3 || trueBillValue > 7);
}

/** "The escalation fee is 20% of the prior administrative judgment." (cents) */
export function escalationFee(priorAdministrativeJudgmentCents: number): number {
  return Math.round(priorAdministrativeJudgmentCents * 0.2);
}

export const RESPONDENT_TYPES = ["Individual", "Official", "Agency", "Corporation", "Joinder"] as const;
