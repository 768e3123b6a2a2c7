import type { MembershipStatus } from "./billing-account";

/**
 * A membership's status where a sentence ends with it, after "Your membership is". A module of
 * its own: the shell's warning bar shows it on every page, without the rest of the words.
 */
const MEMBERSHIP_IS: Record<MembershipStatus | "COMPLIMENTARY", string> = {
  ACTIVE: "active",
  COMPLIMENTARY: "complimentary",
  TRIALING: "in its trial",
  PAST_DUE: "past due",
  UNPAID: "unpaid",
  CANCELED: "cancelled",
  INCOMPLETE: "waiting for its first payment",
  INCOMPLETE_EXPIRED: "not started: its first payment was not made",
  PAUSED: "paused",
};

/** "Your membership is cancelled": the status as the end of a sentence. */
export function membershipIs(status: string): string {
  return MEMBERSHIP_IS[status as MembershipStatus | "COMPLIMENTARY"] ?? status.toLowerCase().replace(/_/g, " ");
}
