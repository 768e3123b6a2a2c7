import { z } from "zod";

/**
 * A member's own billing (/profile/billing): what their membership's status means in words,
 * what they may do with it, and the forms of those actions, parsed with the same schemas in
 * the browser and in the action.
 */

export type MembershipStatus =
  "INCOMPLETE" | "INCOMPLETE_EXPIRED" | "TRIALING" | "ACTIVE" | "PAST_DUE" | "CANCELED" | "UNPAID" | "PAUSED";

const STATUS_WORDS: Record<MembershipStatus, string> = {
  ACTIVE: "Active",
  TRIALING: "Active (trial)",
  PAST_DUE: "Payment overdue: the last payment did not go through",
  INCOMPLETE: "Waiting for the first payment",
  INCOMPLETE_EXPIRED: "Not started: the first payment was not made",
  CANCELED: "Cancelled",
  UNPAID: "Unpaid: ended after payments did not go through",
  PAUSED: "Paused",
};

/** A status in words; a membership set to end says so while it lasts. */
export function membershipStatusText(status: MembershipStatus, cancelAtPeriodEnd: boolean): string {
  if (cancelAtPeriodEnd && (status === "ACTIVE" || status === "TRIALING")) return "Active until the end of this period";
  return STATUS_WORDS[status];
}

/** A membership that is over: joining again is a new one. */
export function membershipEnded(status: MembershipStatus): boolean {
  return status === "CANCELED" || status === "INCOMPLETE_EXPIRED" || status === "UNPAID";
}

/** A membership that will charge its next payment at the end of this period. */
export function membershipRenews(status: MembershipStatus, cancelAtPeriodEnd: boolean): boolean {
  return MANAGEABLE.has(status) && !cancelAtPeriodEnd;
}

/** Statuses whose membership a member may still change, cancel or resume: it is paid or owed. */
const MANAGEABLE: ReadonlySet<MembershipStatus> = new Set(["ACTIVE", "TRIALING", "PAST_DUE"]);

export type MembershipActions = { changePlan: boolean; cancel: boolean; resume: boolean; updateCard: boolean };

/**
 * What a member may do with their membership: one in force may change; one set to end may be
 * resumed, not canceled again. A first payment never made is nothing to change (a new
 * membership started at /subscription takes its place).
 */
export function membershipActions(status: MembershipStatus, cancelAtPeriodEnd: boolean): MembershipActions {
  const manageable = MANAGEABLE.has(status);
  return {
    changePlan: manageable,
    cancel: manageable && !cancelAtPeriodEnd,
    resume: manageable && cancelAtPeriodEnd,
    updateCard: manageable,
  };
}

const attempt = z.string({ required_error: "Reload the page and try again" }).uuid("Reload the page and try again");

export const changePlanSchema = z.object({
  intent: z.literal("change-plan"),
  attempt,
  planId: z.string({ required_error: "Choose a membership" }).trim().min(1, "Choose a membership").max(64),
});
export const cancelSchema = z.object({ intent: z.literal("cancel") });
export const resumeSchema = z.object({ intent: z.literal("resume") });
export const updateCardSchema = z.object({ intent: z.literal("update-card"), attempt });

/** Every form of /profile/billing, told apart by its intent. */
export const billingActionSchema = z.discriminatedUnion("intent", [
  changePlanSchema,
  cancelSchema,
  resumeSchema,
  updateCardSchema,
]);
export type BillingAction = z.infer<typeof billingActionSchema>;
export type BillingIntent = BillingAction["intent"];

/** The receipt page's one form. */
export const emailReceiptSchema = z.object({ intent: z.literal("email-receipt") });

/** A payment's line in words: paid, failed (and why), refunded in full or in part, pending. */
export function paymentStatusText(payment: {
  status: "pending" | "succeeded" | "failed" | "refunded";
  refundedCents: number;
  failureMessage: string | null;
}): string {
  if (payment.status === "failed") return payment.failureMessage ? `Failed: ${payment.failureMessage}` : "Failed";
  if (payment.status === "refunded") return "Refunded";
  if (payment.status === "pending") return "Pending";
  return payment.refundedCents > 0 ? "Paid, partly refunded" : "Paid";
}
