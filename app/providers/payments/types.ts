import type { CardInput } from "~/domain/card";

export type MembershipPlan = {
  id: string;
  kind: "subscription" | "donation";
  amountCents: number | null;
  currency: string;
  interval: "month" | "year" | null;
};

export type MembershipResult =
  { ok: true; providerRef: string; periodEnd: Date | null } | { ok: false; message: string };

/** Card payments: the sandbox and Stripe adapters both answer these. */
export interface PaymentsProvider {
  readonly name: "sandbox" | "stripe";
  /** Charges the card for the plan: starts a subscription, or takes a one-off donation. */
  startMembership(input: {
    userId: string;
    plan: MembershipPlan;
    amountCents: number;
    card: CardInput;
    now: Date;
  }): Promise<MembershipResult>;
}
