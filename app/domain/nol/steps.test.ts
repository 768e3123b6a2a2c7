import { describe, expect, it } from "vitest";
import type { EntryFacts } from "./entries";
import { nextStep, roundProgress, roundsDelivered, roundsTracked } from "./steps";

function creator(rounds: ("tracked" | "mailed" | "delivered")[]): EntryFacts {
  return {
    id: "187-1",
    form: "NoLCreator2",
    cause: "TS",
    descriptive_version: "v1",
    updated: "2026-01-01T00:00:00Z",
    edit_link: null,
    view_link: null,
    nol_tracking: rounds.map(() => true),
    nol_mailing_date: rounds.map((r) => (r === "tracked" ? null : "2026-01-02")),
    nol_proof_of_delivery: rounds.map((r) => r === "delivered"),
    tb_value: null,
    bill_mailing_date: null,
    bill_proof_of_delivery: null,
  };
}

const none = { hasBillingProfile: false, trueBill: null };

describe("NoL steps for a creator entry (spec §4)", () => {
  it("'let h be the number of rounds with tracking set'", () => {
    expect(roundsTracked(null)).toBe(0);
    expect(roundsTracked(creator(["delivered", "tracked"]))).toBe(2);
  });

  it("'Per-round progress is 0 (nothing), 1 (tracking set), 2 (mailing date set) or 3 (proof of delivery)'", () => {
    const entry = creator(["delivered", "mailed", "tracked"]);
    expect(roundProgress(entry, 1)).toBe(3);
    expect(roundProgress(entry, 2)).toBe(2);
    expect(roundProgress(entry, 3)).toBe(1);
    expect(roundProgress(entry, 4)).toBe(0);
  });

  it.each([
    ["no entry", null],
    ["h=0", creator([])],
  ])("'With no entry, or h=0: next is Round 1 Notice of Liability' (%s)", (_what, entry) => {
    expect(nextStep({ ...none, creator: entry })).toEqual({
      kind: "notice",
      round: 1,
      label: "Round 1 Notice of Liability",
      notarize: true,
    });
  });

  it.each([
    [["tracked"], "Round 1 Mailing"],
    [["delivered", "tracked"], "Round 2 Mailing"],
    [["delivered", "delivered", "tracked"], "Round 3 Mailing"],
  ] as const)("'Progress 0 or 1: Round h Mailing' %j → %s", (rounds, label) => {
    const step = nextStep({ ...none, creator: creator([...rounds]) });
    expect(step).toMatchObject({ kind: "mailing", label, notarize: true });
  });

  it("'Progress 0 or 1: Round h Mailing' also when round h has tracking but no progress mark of its own", () => {
    const entry = { ...creator(["delivered"]), nol_tracking: [true, false, true] };
    expect(nextStep({ ...none, creator: entry })).toMatchObject({
      kind: "mailing",
      round: 2,
      label: "Round 2 Mailing",
    });
  });

  it.each([
    [["mailed"], "Round 1 Proof of Delivery"],
    [["delivered", "mailed"], "Round 2 Proof of Delivery"],
    [["delivered", "delivered", "mailed"], "Round 3 Proof of Delivery"],
  ] as const)("'Progress 2: Round h Proof of Delivery' %j → %s", (rounds, label) => {
    expect(nextStep({ ...none, creator: creator([...rounds]) })).toMatchObject({
      kind: "proof",
      label,
      notarize: false,
    });
  });

  it("'Progress 3 with h<=3: Round h+1 Notice of Fault (h=1)'", () => {
    expect(nextStep({ ...none, creator: creator(["delivered"]) })).toEqual({
      kind: "notice",
      round: 2,
      label: "Round 2 Notice of Fault",
      notarize: true,
    });
  });

  it("'or Default (h=2 …)'", () => {
    expect(nextStep({ ...none, creator: creator(["delivered", "delivered"]) })).toMatchObject({
      kind: "notice",
      round: 3,
      label: "Round 3 Default",
    });
  });

  it("'After round 3 is delivered … setup moves to billing. With no billing profile: Setup Billing.'", () => {
    expect(nextStep({ ...none, creator: creator(["delivered", "delivered", "delivered"]) })).toEqual({
      kind: "setup-billing",
      round: null,
      label: "Setup Billing",
      notarize: false,
    });
  });

  it("'or if h>3, setup moves to billing'", () => {
    const entry = creator(["delivered", "delivered", "mailed", "tracked"]);
    expect(nextStep({ ...none, creator: entry })).toMatchObject({ kind: "setup-billing" });
  });

  it("'With a profile: First True Bill.'", () => {
    const entry = creator(["delivered", "delivered", "delivered"]);
    expect(nextStep({ creator: entry, hasBillingProfile: true, trueBill: null })).toEqual({
      kind: "true-bill",
      round: 4,
      label: "First True Bill",
      notarize: false,
    });
  });

  const delivered = creator(["delivered", "delivered", "delivered"]);

  it("'no bill mailing date gives n-th True Bill Mailing'", () => {
    const step = nextStep({
      creator: delivered,
      hasBillingProfile: true,
      trueBill: { tb_value: 1, bill_mailing_date: null, bill_proof_of_delivery: null },
    });
    expect(step).toEqual({ kind: "true-bill-mailing", round: 4, label: "First True Bill Mailing", notarize: true });
  });

  it("'a mailing date but no proof of delivery gives n-th True Bill Proof of Delivery'", () => {
    const step = nextStep({
      creator: delivered,
      hasBillingProfile: true,
      trueBill: { tb_value: 2, bill_mailing_date: "2026-03-01", bill_proof_of_delivery: false },
    });
    expect(step).toEqual({
      kind: "true-bill-proof",
      round: 5,
      label: "Second True Bill Proof of Delivery",
      notarize: false,
    });
  });

  it("'proof of delivery gives the (n+1)th True Bill'", () => {
    const step = nextStep({
      creator: delivered,
      hasBillingProfile: true,
      trueBill: { tb_value: 2, bill_mailing_date: "2026-03-01", bill_proof_of_delivery: true },
    });
    expect(step).toEqual({ kind: "true-bill", round: 6, label: "Third True Bill", notarize: false });
  });

  it("'Online notarizing is offered for notice and mailing steps and for true bill mailing'", () => {
    const offered = [
      nextStep({ ...none, creator: null }),
      nextStep({ ...none, creator: creator(["tracked"]) }),
      nextStep({
        creator: delivered,
        hasBillingProfile: true,
        trueBill: { tb_value: 1, bill_mailing_date: null, bill_proof_of_delivery: null },
      }),
    ];
    const notOffered = [
      nextStep({ ...none, creator: creator(["mailed"]) }),
      nextStep({ ...none, creator: delivered }),
      nextStep({ creator: delivered, hasBillingProfile: true, trueBill: null }),
    ];
    expect(offered.every((s) => s.notarize)).toBe(true);
    expect(notOffered.some((s) => s.notarize)).toBe(false);
  });

  it("counts the rounds delivered in a row", () => {
    expect(roundsDelivered(null)).toBe(0);
    expect(roundsDelivered(creator(["delivered", "delivered", "mailed"]).nol_proof_of_delivery)).toBe(2);
  });
});
