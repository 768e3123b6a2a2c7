/**
 * Complimentary memberships (decision 037): a plan an admin grants, with its features, billed
 * by nobody. The lists and facts read one in force as its own status.
 */

/** The `provider` of a complimentary membership's row. */
export const COMPLIMENTARY = "complimentary" as const;

/** The status a complimentary membership in force shows as (and `users.subscription_status` keeps). */
export const COMPLIMENTARY_STATUS = "COMPLIMENTARY";

export const isComplimentary = (subscription: { provider: string }): boolean => subscription.provider === COMPLIMENTARY;

/** The status a membership shows: a complimentary one in force reads COMPLIMENTARY. */
export function shownStatus(subscription: { status: string; provider: string } | null | undefined): string | null {
  if (!subscription) return null;
  return isComplimentary(subscription) && subscription.status === "ACTIVE" ? COMPLIMENTARY_STATUS : subscription.status;
}

/** The longest an admin may grant one for. */
export const COMPLIMENTARY_MAX_YEARS = 10;
export const COMPLIMENTARY_NOTE_MAX = 500;

/**
 * When a grant with this end day ends (the start of that day, UTC), or why the day does not
 * do: it must come after today and within the longest grant. No day: it never ends by itself.
 */
export function complimentaryEnd(endsOn: string | undefined, today: string): { end: Date | null } | { error: string } {
  if (!endsOn) return { end: null };
  if (endsOn <= today) return { error: "The end date must be after today" };
  const [year, rest] = [Number(today.slice(0, 4)), today.slice(4)];
  if (endsOn > `${year + COMPLIMENTARY_MAX_YEARS}${rest}`)
    return { error: `The end date must be within ${COMPLIMENTARY_MAX_YEARS} years` };
  return { end: new Date(`${endsOn}T00:00:00.000Z`) };
}
