/**
 * How a member who cannot use the NoL creator gets it, told the same way wherever the creator
 * is out of reach (home, /subscription, /nol/creator, a cause's address): the plans that
 * include it, and the one way open to them.
 */

export type CreatorWay =
  /** An admin opens it for themselves: their own member page's NoL creator flag. */
  | { kind: "admin" }
  /** A membership that may change plan: a prorated change to one of these plans. */
  | { kind: "upgrade"; planIds: string[] }
  /** A membership that cannot change plan now (a payment overdue, a first payment not made). */
  | { kind: "billing" }
  /** No membership: choose one of the plans. */
  | { kind: "subscribe" }
  /** No plan includes it: the community's support opens it. */
  | { kind: "support" };

export type CreatorWayInput = {
  /** Creator or tester already: nothing to offer. */
  creator: boolean;
  admin: boolean;
  creatorPlanIds: string[];
  /** The membership in force, and whether its plan may be changed now. */
  membership: { planId: string; changeable: boolean } | null;
};

export function creatorWay(input: CreatorWayInput): CreatorWay | null {
  if (input.creator) return null;
  if (input.admin) return { kind: "admin" };
  if (input.creatorPlanIds.length === 0) return { kind: "support" };
  if (!input.membership) return { kind: "subscribe" };
  if (!input.membership.changeable) return { kind: "billing" };
  const planIds = input.creatorPlanIds.filter((id) => id !== input.membership?.planId);
  return planIds.length > 0 ? { kind: "upgrade", planIds } : { kind: "billing" };
}

/** "the Monthly membership or the Annual membership". */
export function planList(titles: string[]): string {
  return titles.map((title) => `the ${title}`).join(" or ");
}
