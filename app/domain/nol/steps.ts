import type { EntryFacts } from "./entries";
import { NOTICE_ROUNDS, SETUP_BILLING, trueBillName } from "./rounds";

/** What a round's progress can be (spec §4 "NoL steps"). */
export type Progress = 0 | 1 | 2 | 3;

export type StepKind =
  "notice" | "mailing" | "proof" | "setup-billing" | "true-bill" | "true-bill-mailing" | "true-bill-proof";

export type Step = {
  kind: StepKind;
  /** 1–3 for notices; 3 + n for the n-th true bill; null for Setup Billing. */
  round: number | null;
  label: string;
  /** "Online notarizing is offered for notice and mailing steps and for true bill mailing." */
  notarize: boolean;
};

/** The notice of each round (spec §4 "NoL steps"). */
export const NOTICE_NAMES: Record<number, string> = { 1: "Notice of Liability", 2: "Notice of Fault", 3: "Default" };

/** "let h be the number of rounds with tracking set" */
export function roundsTracked(entry: Pick<EntryFacts, "nol_tracking"> | null): number {
  return entry ? entry.nol_tracking.filter(Boolean).length : 0;
}

/** "0 (nothing), 1 (tracking set), 2 (mailing date set) or 3 (proof of delivery)" */
export function roundProgress(
  entry: Pick<EntryFacts, "nol_tracking" | "nol_mailing_date" | "nol_proof_of_delivery">,
  round: number,
): Progress {
  const i = round - 1;
  if (entry.nol_proof_of_delivery[i]) return 3;
  if (entry.nol_mailing_date[i]) return 2;
  if (entry.nol_tracking[i]) return 1;
  return 0;
}

function notice(round: number): Step {
  return { kind: "notice", round, label: `Round ${round} ${NOTICE_NAMES[round]}`, notarize: true };
}

export type StepInput = {
  /** The NoL Creator entry of the version, if any. */
  creator: EntryFacts | null;
  /** Whether a billing profile exists for the version. */
  hasBillingProfile: boolean;
  /** The latest true bill of the version, if any. */
  trueBill: Pick<EntryFacts, "tb_value" | "bill_mailing_date" | "bill_proof_of_delivery"> | null;
};

/** The next step of a creator entry (spec §4 "NoL steps for a creator entry"). */
export function nextStep({ creator, hasBillingProfile, trueBill }: StepInput): Step {
  const h = roundsTracked(creator);
  // "With no entry, or h=0: next is Round 1 Notice of Liability."
  if (!creator || h === 0) return notice(1);
  if (h <= NOTICE_ROUNDS) {
    const progress = roundProgress(creator, h);
    // "Progress 0 or 1: Round h Mailing."
    if (progress <= 1) return { kind: "mailing", round: h, label: `Round ${h} Mailing`, notarize: true };
    // "Progress 2: Round h Proof of Delivery."
    if (progress === 2) return { kind: "proof", round: h, label: `Round ${h} Proof of Delivery`, notarize: false };
    // "Progress 3 with h<=3: Round h+1 Notice of Fault (h=1) or Default (h=2 or 3)."
    // A delivered round 3 moves to billing (DESIGN.md §6): round 3 is itself the Default.
    if (h < NOTICE_ROUNDS) return notice(h + 1);
  }
  // "After round 3 is delivered, or if h>3, setup moves to billing."
  if (trueBill && trueBill.tb_value) {
    const n = trueBill.tb_value;
    const round = NOTICE_ROUNDS + n;
    if (!trueBill.bill_mailing_date) {
      return { kind: "true-bill-mailing", round, label: `${trueBillName(n)} Mailing`, notarize: true };
    }
    if (!trueBill.bill_proof_of_delivery) {
      return { kind: "true-bill-proof", round, label: `${trueBillName(n)} Proof of Delivery`, notarize: false };
    }
    return { kind: "true-bill", round: round + 1, label: trueBillName(n + 1), notarize: false };
  }
  if (!hasBillingProfile) return { kind: "setup-billing", round: null, label: SETUP_BILLING, notarize: false };
  return { kind: "true-bill", round: NOTICE_ROUNDS + 1, label: trueBillName(1), notarize: false };
}

/** The rounds delivered one after another from round 1, from the proof-of-delivery flags. */
export function roundsDelivered(proofOfDelivery: boolean[] | null): number {
  if (!proofOfDelivery) return 0;
  let n = 0;
  while (n < proofOfDelivery.length && proofOfDelivery[n]) n += 1;
  return n;
}
