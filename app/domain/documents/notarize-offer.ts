import { roundLabel } from "../nol/rounds";
import type { Step } from "../nol/steps";

/**
 * Which notice of a member version can be notarized online now (spec §4: "Online notarizing
 * is offered for notice and mailing steps and for true bill mailing", and only when the
 * version's nolFeatures allow AllowNotarizeOnline): the notice of the round the version's next
 * step works on, once it has been submitted.
 */

/** A member version's features (spec §3 nolFeatures). */
export type NolFeatures = { AllowNotarizeOnline: boolean };

/** What a version starts with: notarizing online allowed. */
export const DEFAULT_NOL_FEATURES: NolFeatures = { AllowNotarizeOnline: true };

export type NotarizeOffer = { round: number; reason: null } | { round: null; reason: string };

export function notarizeOffer(input: {
  features: NolFeatures;
  step: Pick<Step, "notarize" | "round" | "label">;
  /** The rounds of the version that have a notice (submitted). */
  noticeRounds: readonly number[];
}): NotarizeOffer {
  const { features, step, noticeRounds } = input;
  if (!features.AllowNotarizeOnline) {
    return { round: null, reason: "Notarizing online is not enabled for this version." };
  }
  if (!step.notarize || step.round === null) {
    return {
      round: null,
      reason: `Notarizing online is offered at the notice and mailing steps; this version's next step is ${step.label}.`,
    };
  }
  if (!noticeRounds.includes(step.round)) {
    const name = roundLabel(step.round).label ?? `Round ${step.round}`;
    return { round: null, reason: `Submit the ${name} notice first; it can then be notarized online.` };
  }
  return { round: step.round, reason: null };
}

/** Why a given round cannot be notarized now; null when it is the one on offer. */
export function notarizeRefusal(offer: NotarizeOffer, round: number): string | null {
  if (offer.reason) return offer.reason;
  if (offer.round === round) return null;
  const name = roundLabel(round).label ?? `Round ${round}`;
  return `${name} is not at a step that can be notarized online; the current notice is ${roundLabel(offer.round).label}.`;
}
