import type { ApiResult } from "./api-client";
import { inFrame, storedState } from "./state-store";

/**
 * The browser side of a coupon landing (spec §4): the coupon kept for this tab's visit, and
 * what the landing shows after its second, refreshed load. Runs in the browser only.
 */

const COUPON_STORAGE = "coupon";

function tabStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps the landing's coupon slug for the rest of the visit (the server keeps it in a cookie too). */
export function keepLandingCoupon(slug: string): void {
  tabStorage()?.setItem(COUPON_STORAGE, slug);
}

export function keptLandingCoupon(): string | null {
  return tabStorage()?.getItem(COUPON_STORAGE) ?? null;
}

export function forgetLandingCoupon(): void {
  tabStorage()?.removeItem(COUPON_STORAGE);
}

type SubState = { sub_id: string | null } | null | undefined;

/**
 * The state the page goes by: outside a frame, the page's own session (the state client
 * stores it only after the page's effects have run, so its copy may still be an old one);
 * inside one, the state the state-header carrier keeps.
 */
export function pageState(pageSession: SubState): SubState {
  return inFrame() ? (storedState()?.core ?? null) : pageSession;
}

/** Whether the state carries a subscription: then the landing resets (spec §4). */
export function hasSubscription(state: SubState): boolean {
  return Boolean(state?.sub_id);
}

/** The first load shown (as the server rendered it), the second under way or answered, or no offer. */
export type LandingStatus = "first" | "refreshing" | "verified" | "unavailable" | "member";

/**
 * What the landing shows once its refreshed load answers:
 * - a state carrying sub_id (the answer's, now stored): the member's message;
 * - the offer: verified;
 * - a 404 without a state header is ignored (spec §7), and a failed call changes nothing
 *   either: the first load's offer stays;
 * - an answer with an error otherwise (a 404 that carries the member's state): unavailable.
 */
export function landingAfterRefresh(result: ApiResult<unknown>, subscribed: boolean): LandingStatus {
  if (subscribed) return "member";
  if (result.ignored) return "first";
  if (result.data && !result.error) return "verified";
  return result.status === 404 ? "unavailable" : "first";
}
