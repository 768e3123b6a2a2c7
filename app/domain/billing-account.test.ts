import { describe, expect, it } from "vitest";
import {
  billingActionSchema,
  membershipActions,
  membershipEnded,
  membershipRenews,
  membershipStatusText,
  paymentStatusText,
  type MembershipStatus,
} from "./billing-account";

describe("a membership's status in words", () => {
  it.each<[MembershipStatus, boolean, string]>([
    ["ACTIVE", false, "Active"],
    ["ACTIVE", true, "Active until the end of this period"],
    ["TRIALING", false, "Active (trial)"],
    ["TRIALING", true, "Active until the end of this period"],
    ["PAST_DUE", false, "Payment overdue: the last payment did not go through"],
    ["INCOMPLETE", false, "Waiting for the first payment"],
    ["INCOMPLETE_EXPIRED", false, "Not started: the first payment was not made"],
    ["CANCELED", false, "Cancelled"],
    ["UNPAID", false, "Unpaid: ended after payments did not go through"],
    ["PAUSED", false, "Paused"],
  ])("%s (cancel at period end: %s) reads %j", (status, cancelAtPeriodEnd, words) => {
    expect(membershipStatusText(status, cancelAtPeriodEnd)).toBe(words);
  });
});

describe("what a member may do with their membership", () => {
  it.each<[MembershipStatus, boolean, ReturnType<typeof membershipActions>]>([
    ["ACTIVE", false, { changePlan: true, cancel: true, resume: false, updateCard: true }],
    ["ACTIVE", true, { changePlan: true, cancel: false, resume: true, updateCard: true }],
    ["TRIALING", false, { changePlan: true, cancel: true, resume: false, updateCard: true }],
    // A member whose payment failed replaces the card first, and may still change or cancel.
    ["PAST_DUE", false, { changePlan: true, cancel: true, resume: false, updateCard: true }],
    // Never paid: the next checkout replaces it.
    ["INCOMPLETE", false, { changePlan: false, cancel: false, resume: false, updateCard: false }],
    ["CANCELED", false, { changePlan: false, cancel: false, resume: false, updateCard: false }],
    ["INCOMPLETE_EXPIRED", false, { changePlan: false, cancel: false, resume: false, updateCard: false }],
    ["UNPAID", false, { changePlan: false, cancel: false, resume: false, updateCard: false }],
  ])("%s (cancel at period end: %s)", (status, cancelAtPeriodEnd, actions) => {
    expect(membershipActions(status, cancelAtPeriodEnd)).toEqual(actions);
  });

  it.each<[MembershipStatus, boolean, boolean]>([
    ["ACTIVE", false, true],
    ["ACTIVE", true, false],
    ["PAST_DUE", false, true],
    ["INCOMPLETE", false, false],
    ["CANCELED", false, false],
  ])("%s (cancel at period end: %s) renews: %s", (status, cancelAtPeriodEnd, renews) => {
    expect(membershipRenews(status, cancelAtPeriodEnd)).toBe(renews);
  });

  it("counts CANCELED, INCOMPLETE_EXPIRED and UNPAID as ended, and nothing else", () => {
    const ended = (["ACTIVE", "TRIALING", "PAST_DUE", "INCOMPLETE", "PAUSED"] as const).filter(membershipEnded);
    expect(ended).toEqual([]);
    expect((["CANCELED", "INCOMPLETE_EXPIRED", "UNPAID"] as const).every(membershipEnded)).toBe(true);
  });
});

describe("a payment's status in words", () => {
  it.each([
    [{ status: "succeeded", refundedCents: 0, failureMessage: null }, "Paid"],
    [{ status: "succeeded", refundedCents: 500, failureMessage: null }, "Paid, partly refunded"],
    [{ status: "refunded", refundedCents: 2000, failureMessage: null }, "Refunded"],
    [
      { status: "failed", refundedCents: 0, failureMessage: "Your card was declined." },
      "Failed: Your card was declined.",
    ],
    [{ status: "failed", refundedCents: 0, failureMessage: null }, "Failed"],
    [{ status: "pending", refundedCents: 0, failureMessage: null }, "Pending"],
  ] as const)("%j reads %j", (payment, words) => {
    expect(paymentStatusText(payment)).toBe(words);
  });
});

describe("the billing page's forms", () => {
  const attempt = "6f1c1f7e-0000-4000-8000-000000000000";

  it.each([
    [{ intent: "change-plan", attempt, planId: "annual" }],
    [{ intent: "cancel" }],
    [{ intent: "resume" }],
    [{ intent: "update-card", attempt }],
  ])("takes %j", (form) => {
    expect(billingActionSchema.safeParse(form).success).toBe(true);
  });

  it.each([
    [{ intent: "change-plan", attempt, planId: "" }],
    [{ intent: "change-plan", attempt: "not-an-attempt", planId: "annual" }],
    [{ intent: "update-card" }],
    [{ intent: "refund-me" }],
    [{}],
  ])("refuses %j", (form) => {
    expect(billingActionSchema.safeParse(form).success).toBe(false);
  });
});
