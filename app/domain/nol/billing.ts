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

/** The mailing form's field of the tracking number of a respondent's envelope, by the respondent's slot. */
export const trackingField = (slot: number) => `track${slot}`;

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

/** A named respondent of a version, in its slot (1–16). */
export type SlotRespondent = { slot: number; name: string; type: string };

/** The continue and status flags of a bill, one per slot (index slot − 1). */
export type BillFlags = { continue: boolean[]; status: boolean[] };

/** A respondent on a new true bill: billed, or not and why. */
export type BillLine = SlotRespondent & { billed: boolean; reason: "ended" | "joinder-skip" | null };

/**
 * Who a true bill with value `trueBillValue` bills. A respondent whose repeat-billing flag
 * (from the prior bill's continue flag and status) is false has ended; a Joinder respondent
 * is skipped on the bills the skip-bill rule names. The first bill bills everyone else.
 */
export function billLines(respondents: SlotRespondent[], trueBillValue: number, prior: BillFlags | null): BillLine[] {
  const repeat = prior ? repeatBillingFlags(prior.continue, prior.status) : null;
  return [...respondents]
    .sort((a, b) => a.slot - b.slot)
    .map((r) => {
      if (repeat && !repeat[r.slot - 1]) return { ...r, billed: false, reason: "ended" as const };
      if (skipBill(r.type, trueBillValue)) return { ...r, billed: false, reason: "joinder-skip" as const };
      return { ...r, billed: true, reason: null };
    });
}

/**
 * The flags a new bill records: a billed respondent's as the member set them, an ended one's
 * stay false, and a skipped Joinder respondent keeps the prior ones, so the next bill that
 * may bill them does.
 */
export function newBillFlags(lines: BillLine[], chosen: BillFlags, prior: BillFlags | null): BillFlags {
  const flags: BillFlags = {
    continue: Array<boolean>(TOTAL_RESPONDENT_SLOTS).fill(false),
    status: Array<boolean>(TOTAL_RESPONDENT_SLOTS).fill(false),
  };
  for (const line of lines) {
    const i = line.slot - 1;
    if (line.billed) {
      flags.continue[i] = Boolean(chosen.continue[i]);
      flags.status[i] = Boolean(chosen.status[i]);
    } else if (line.reason === "joinder-skip") {
      flags.continue[i] = prior ? Boolean(prior.continue[i]) : true;
      flags.status[i] = prior ? Boolean(prior.status[i]) : true;
    }
  }
  return flags;
}

/**
 * The NoL entry keeps the flags in three groups, as its rounds opened the slots:
 * respondents 1–8, the extra ones of round 2 (9–12) and of round 3 (13–16).
 */
export function splitBySlotGroup(flags: boolean[]): [boolean[], boolean[], boolean[]] {
  const padded = Array.from({ length: TOTAL_RESPONDENT_SLOTS }, (_, i) => Boolean(flags[i]));
  return [padded.slice(0, 8), padded.slice(8, 12), padded.slice(12, 16)];
}

/**
 * The 16 flags from the entry's three groups. A flag the entry does not hold (a bill saved
 * before flags were kept, or a hosted form that sent a shorter list) is `missing`: reading
 * a prior bill, that is true, since the spec stops billing only on a flag that *is* false.
 */
export function joinSlotGroups(groups: [boolean[], boolean[], boolean[]], missing = false): boolean[] {
  const [first, second, third] = groups;
  const fit = (values: boolean[], length: number) =>
    Array.from({ length }, (_, i) => (typeof values[i] === "boolean" ? values[i] : missing));
  return [...fit(first, 8), ...fit(second, 4), ...fit(third, 4)];
}

/**
 * Which steps a form's page offers (spec §2.2 "form"): the creator walks the notice rounds,
 * Setup Billing and the first true bill; the billing-profile form only Setup Billing; the
 * billing form the true bills. Once a version has a bill, a new one is made only on the
 * billing form with no entry selected (`createsNewBill`); its mailing and proof go on
 * wherever the bill was made.
 */
export function formOffersStep(
  form: NolForm,
  stepKind: string,
  selection: { selectedEntryId: string | null; billExistsForVersion: boolean },
): boolean {
  if (form === "NoLProfileBilling") return stepKind === "setup-billing";
  if (stepKind === "true-bill" && selection.billExistsForVersion) return createsNewBill({ form, ...selection });
  if (form === "NoLCreator2") return true;
  return stepKind === "true-bill" || stepKind === "true-bill-mailing" || stepKind === "true-bill-proof";
}

/** The form whose page takes a step when the current one does not. */
export function formForStep(stepKind: string, billExistsForVersion: boolean): NolForm {
  return stepKind === "true-bill" && billExistsForVersion ? "NoLBilling" : "NoLCreator2";
}

/** The entries a form's page lists: the creator lists all, the other forms their own. */
export function formListsEntry(form: NolForm, entryForm: NolForm): boolean {
  return form === "NoLCreator2" || form === entryForm;
}

/** A respondent's mailing address as the records keep it: parts by name (a hosted form's), or the whole line the built-in notice step takes. */
export type RespondentAddress = Record<string, string>;

/** The address on one line, its parts in order; null when it has none. */
export function addressLine(address: RespondentAddress | null | undefined): string | null {
  const parts = Object.values(address ?? {}).filter((part) => typeof part === "string" && part.trim());
  return parts.length > 0 ? parts.join(", ") : null;
}
