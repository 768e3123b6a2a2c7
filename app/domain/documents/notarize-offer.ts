import { roundLabel } from "../nol/rounds";
import type { Step } from "../nol/steps";

/**
 * Which notice of a member version can be notarized online now (spec §4: "Online notarizing
 * is offered for notice and mailing steps and for true bill mailing", and only when the
 * version's nolFeatures allow AllowNotarizeOnline): the notice of the round the version's next
 * step works on. At a mailing step that is the notice submitted before it; at a notice step it
 * is the notice being written, as the version's saved answers (its creator entry) make it.
 */

/** A member version's features (spec §3 nolFeatures). */
export type NolFeatures = { AllowNotarizeOnline: boolean };

/** What a version starts with: notarizing online allowed. */
export const DEFAULT_NOL_FEATURES: NolFeatures = { AllowNotarizeOnline: true };

/** `written`: the round's notice is the one its notice step is writing (not submitted yet). */
export type NotarizeOffer = { round: number; reason: null; written: boolean } | { round: null; reason: string };

type OfferStep = Pick<Step, "kind" | "notarize" | "round" | "label">;

/**
 * Whether the step can notarize anything: a notice or mailing step (or a true bill's mailing)
 * of a round; a notice step only with saved answers to make its notice from.
 */
export function stepNotarizes(step: OfferStep, savedAnswers: boolean): boolean {
  return step.notarize && step.round !== null && (step.kind !== "notice" || savedAnswers);
}

export function notarizeOffer(input: {
  features: NolFeatures;
  step: OfferStep;
  /** The rounds of the version that have a notice. */
  noticeRounds: readonly number[];
  /** Whether the version has saved answers (a creator entry) to make its next notice from. */
  savedAnswers: boolean;
}): NotarizeOffer {
  const { features, step, noticeRounds, savedAnswers } = input;
  if (!features.AllowNotarizeOnline) {
    return { round: null, reason: "Notarizing online is not enabled for this version." };
  }
  if (!step.notarize || step.round === null) {
    return {
      round: null,
      reason: `Notarizing online is offered at the notice and mailing steps; this version's next step is ${step.label}.`,
    };
  }
  const name = roundLabel(step.round).label ?? `Round ${step.round}`;
  if (step.kind === "notice") {
    if (stepNotarizes(step, savedAnswers)) return { round: step.round, reason: null, written: true };
    return {
      round: null,
      reason: `The ${name} notice has no saved answers yet; save it, and it can be notarized online at its mailing step.`,
    };
  }
  if (!noticeRounds.includes(step.round)) {
    return { round: null, reason: `Submit the ${name} notice first; it can then be notarized online.` };
  }
  return { round: step.round, reason: null, written: false };
}

/** Why a given round cannot be notarized now; null when it is the one on offer. */
export function notarizeRefusal(offer: NotarizeOffer, round: number): string | null {
  if (offer.reason !== null) return offer.reason;
  if (offer.round === round) return null;
  const name = roundLabel(round).label ?? `Round ${round}`;
  return `${name} is not at a step that can be notarized online; the current notice is ${roundLabel(offer.round).label}.`;
}
