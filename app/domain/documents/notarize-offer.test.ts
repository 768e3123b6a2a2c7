import { describe, expect, it } from "vitest";
import { nextStep } from "../nol/steps";
import { DEFAULT_NOL_FEATURES, notarizeOffer, notarizeRefusal } from "./notarize-offer";

const creator = (tracking: boolean[], mailing: boolean[] = [], delivered: boolean[] = []) =>
  ({
    nol_tracking: tracking,
    nol_mailing_date: mailing.map((m) => (m ? "2026-03-02" : null)),
    nol_proof_of_delivery: delivered,
  }) as never;

const offer = (step: ReturnType<typeof nextStep>, noticeRounds: number[], allow = true) =>
  notarizeOffer({ features: { AllowNotarizeOnline: allow }, step, noticeRounds });

describe("online notarizing is offered for notice and mailing steps and for true bill mailing", () => {
  it("a submitted round 1 at its notice step, and at its mailing step", () => {
    const notice = nextStep({ creator: creator([false]), hasBillingProfile: false, trueBill: null });
    expect(offer(notice, [1])).toEqual({ round: 1, reason: null });
    const mailing = nextStep({ creator: creator([true]), hasBillingProfile: false, trueBill: null });
    expect(mailing.kind).toBe("mailing");
    expect(offer(mailing, [1])).toEqual({ round: 1, reason: null });
  });

  it("a true bill at its mailing step", () => {
    const step = nextStep({
      creator: creator([true, true, true], [true, true, true], [true, true, true]),
      hasBillingProfile: true,
      trueBill: { tb_value: 1, bill_mailing_date: null, bill_proof_of_delivery: false } as never,
    });
    expect(step.kind).toBe("true-bill-mailing");
    expect(offer(step, [1, 2, 3, 4])).toEqual({ round: 4, reason: null });
  });

  it("not at a proof-of-delivery step, nor at Setup Billing: the reason names the step", () => {
    const proof = nextStep({ creator: creator([true], [true]), hasBillingProfile: false, trueBill: null });
    expect(offer(proof, [1])).toEqual({
      round: null,
      reason:
        "Notarizing online is offered at the notice and mailing steps; this version's next step is Round 1 Proof of Delivery.",
    });
    const setup = nextStep({
      creator: creator([true, true, true], [true, true, true], [true, true, true]),
      hasBillingProfile: false,
      trueBill: null,
    });
    expect(offer(setup, [1, 2, 3]).reason).toContain("Setup Billing");
  });

  it("not before the step's notice is submitted", () => {
    const fresh = nextStep({ creator: null, hasBillingProfile: false, trueBill: null });
    expect(offer(fresh, [])).toEqual({
      round: null,
      reason: "Submit the Round 1 notice first; it can then be notarized online.",
    });
  });

  it("only when the version's features allow AllowNotarizeOnline", () => {
    const mailing = nextStep({ creator: creator([true]), hasBillingProfile: false, trueBill: null });
    expect(offer(mailing, [1], false)).toEqual({
      round: null,
      reason: "Notarizing online is not enabled for this version.",
    });
    expect(DEFAULT_NOL_FEATURES.AllowNotarizeOnline).toBe(true);
  });
});

describe("notarizeRefusal", () => {
  it("is null for the round on offer, and names the current notice for another", () => {
    expect(notarizeRefusal({ round: 2, reason: null }, 2)).toBeNull();
    expect(notarizeRefusal({ round: 2, reason: null }, 1)).toBe(
      "Round 1 is not at a step that can be notarized online; the current notice is Round 2.",
    );
    expect(notarizeRefusal({ round: null, reason: "Not now." }, 1)).toBe("Not now.");
  });
});
