import { describe, expect, it } from "vitest";
import { nextStep } from "../nol/steps";
import {
  DEFAULT_NOL_FEATURES,
  notarizeOffer,
  notarizeRefusal,
  stepNotarizes,
  type NotarizeOffer,
} from "./notarize-offer";

const creator = (tracking: boolean[], mailing: boolean[] = [], delivered: boolean[] = []) =>
  ({
    nol_tracking: tracking,
    nol_mailing_date: mailing.map((m) => (m ? "2026-03-02" : null)),
    nol_proof_of_delivery: delivered,
  }) as never;

const all = [true, true, true];
const steps = {
  fresh: nextStep({ creator: null, hasBillingProfile: false, trueBill: null }),
  hostedRound1: nextStep({ creator: creator([false]), hasBillingProfile: false, trueBill: null }),
  mailing1: nextStep({ creator: creator([true]), hasBillingProfile: false, trueBill: null }),
  proof1: nextStep({ creator: creator([true], [true]), hasBillingProfile: false, trueBill: null }),
  notice2: nextStep({ creator: creator([true], [true], [true]), hasBillingProfile: false, trueBill: null }),
  mailing2: nextStep({ creator: creator([true, true], [true], [true]), hasBillingProfile: false, trueBill: null }),
  notice3: nextStep({
    creator: creator([true, true], [true, true], [true, true]),
    hasBillingProfile: false,
    trueBill: null,
  }),
  setup: nextStep({ creator: creator(all, all, all), hasBillingProfile: false, trueBill: null }),
  billMailing: nextStep({
    creator: creator(all, all, all),
    hasBillingProfile: true,
    trueBill: { tb_value: 1, bill_mailing_date: null, bill_proof_of_delivery: false } as never,
  }),
  billProof: nextStep({
    creator: creator(all, all, all),
    hasBillingProfile: true,
    trueBill: { tb_value: 1, bill_mailing_date: "2026-06-02", bill_proof_of_delivery: false } as never,
  }),
};

const offered = (round: number, written: boolean): NotarizeOffer => ({ round, reason: null, written });
const refused = (reason: string): NotarizeOffer => ({ round: null, reason });

describe("online notarizing is offered for notice and mailing steps and for true bill mailing", () => {
  const cases: [string, keyof typeof steps, number[], boolean, boolean, NotarizeOffer][] = [
    // what, step, rounds with a notice, saved answers, AllowNotarizeOnline, offer
    ["round 2's notice step: the notice being written", "notice2", [1], true, true, offered(2, true)],
    ["round 2's notice step once that notice was notarized", "notice2", [1, 2], true, true, offered(2, true)],
    ["round 3's notice step", "notice3", [1, 2], true, true, offered(3, true)],
    ["a hosted entry's round 1 at its notice step", "hostedRound1", [], true, true, offered(1, true)],
    ["round 1's mailing step: the submitted notice", "mailing1", [1], true, true, offered(1, false)],
    ["round 2's mailing step", "mailing2", [1, 2], true, true, offered(2, false)],
    ["the first true bill's mailing step", "billMailing", [1, 2, 3, 4], true, true, offered(4, false)],
    [
      "a notice step with nothing saved",
      "fresh",
      [],
      false,
      true,
      refused(
        "The Round 1 notice has no saved answers yet; save it, and it can be notarized online at its mailing step.",
      ),
    ],
    [
      "a mailing step whose notice is not recorded",
      "mailing2",
      [1],
      true,
      true,
      refused("Submit the Round 2 notice first; it can then be notarized online."),
    ],
    [
      "a proof-of-delivery step",
      "proof1",
      [1],
      true,
      true,
      refused(
        "Notarizing online is offered at the notice and mailing steps; this version's next step is Round 1 Proof of Delivery.",
      ),
    ],
    [
      "Setup Billing",
      "setup",
      [1, 2, 3],
      true,
      true,
      refused(
        "Notarizing online is offered at the notice and mailing steps; this version's next step is Setup Billing.",
      ),
    ],
    [
      "a true bill's proof-of-delivery step",
      "billProof",
      [1, 2, 3, 4],
      true,
      true,
      refused(
        "Notarizing online is offered at the notice and mailing steps; this version's next step is First True Bill Proof of Delivery.",
      ),
    ],
    [
      "a notice step of a version that does not allow it",
      "notice2",
      [1],
      true,
      false,
      refused("Notarizing online is not enabled for this version."),
    ],
    [
      "a mailing step of a version that does not allow it",
      "mailing1",
      [1],
      true,
      false,
      refused("Notarizing online is not enabled for this version."),
    ],
  ];
  it.each(cases)("%s", (_what, step, noticeRounds, savedAnswers, allow, expected) => {
    const offer = notarizeOffer({
      features: { AllowNotarizeOnline: allow },
      step: steps[step],
      noticeRounds,
      savedAnswers,
    });
    expect(offer).toEqual(expected);
  });

  it("every version starts with AllowNotarizeOnline", () => {
    expect(DEFAULT_NOL_FEATURES.AllowNotarizeOnline).toBe(true);
  });
});

describe("stepNotarizes: where the version list links to the notarize page", () => {
  const cases: [keyof typeof steps, boolean, boolean][] = [
    ["notice2", true, true],
    ["notice3", true, true],
    ["hostedRound1", true, true],
    ["fresh", false, false],
    ["mailing1", true, true],
    ["mailing2", false, true],
    ["billMailing", true, true],
    ["proof1", true, false],
    ["setup", true, false],
    ["billProof", true, false],
  ];
  it.each(cases)("%s with saved answers %s: %s", (step, savedAnswers, expected) => {
    expect(stepNotarizes(steps[step], savedAnswers)).toBe(expected);
  });
});

describe("notarizeRefusal", () => {
  const cases: [NotarizeOffer, number, string | null][] = [
    [offered(2, false), 2, null],
    [offered(2, true), 2, null],
    [offered(2, false), 1, "Round 1 is not at a step that can be notarized online; the current notice is Round 2."],
    [offered(3, true), 2, "Round 2 is not at a step that can be notarized online; the current notice is Round 3."],
    [refused("Not now."), 1, "Not now."],
  ];
  it.each(cases)("%j for round %i: %s", (offer, round, expected) => {
    expect(notarizeRefusal(offer, round)).toBe(expected);
  });
});
