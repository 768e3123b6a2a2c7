/** Rules of the page shell (spec §2.4 "Layouts"). */

/** "dismissible everywhere except on /c/ and /signup paths". */
export function couponBannerFixed(pathname: string): boolean {
  return pathname === "/c" || pathname.startsWith("/c/") || pathname.startsWith("/signup");
}

/**
 * How the coupon banner says the offer is taken: a visitor signs up; a member signed in is
 * already past that, and takes it by finishing setup or by choosing a membership.
 */
export function couponBannerWay(session: { needsSetup: boolean } | null): { link: string; to: string } {
  if (!session) return { link: "sign up", to: "/signup" };
  if (session.needsSetup) return { link: "finish setting up your account", to: "/setup" };
  return { link: "choose a membership", to: "/subscription" };
}

/**
 * "A warning bar at the bottom shows the subscription status when it is not ACTIVE": the
 * status to show, or null. A member still in setup, or without a subscription (a free
 * community, a donation), has no status to warn about.
 */
export function subscriptionWarning(session: { needsSetup: boolean; sub_status: string | null } | null): string | null {
  if (!session || session.needsSetup || session.sub_status === "ACTIVE") return null;
  return session.sub_status;
}

/**
 * The profile of a member still in setup: setup's profile step, where name and country are
 * kept; the guard keeps such a member off /profile (spec §2.3), setup lets them back to it.
 */
export const SETUP_PROFILE_PATH = "/setup/profile";

/** "a link to continue signup (no user id yet) or setup (user id present)". */
export function continueSetupPath(session: { user_id: string | null }): "/setup" | "/signup" {
  return session.user_id ? "/setup" : "/signup";
}
