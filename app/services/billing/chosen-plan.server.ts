import type { AppConfig } from "~/config/config.server";
import { siteCookies } from "../session.server";

/**
 * The plan a visitor chose before having an account (a coupon landing's "Subscribe", or a
 * membership on /subscription): sign-up keeps it in a cookie, and setup takes the member
 * from its details step straight to that plan's payment.
 */

const PLAN_ID = /^[\w-]{1,64}$/;

/** Sign-up, keeping the plan chosen (the offer stays in its own cookie). */
export function signupPathFor(planId: string): string {
  return `/signup?plan=${encodeURIComponent(planId)}`;
}

/** The header that keeps `planId` for setup, or null for a value that cannot be a plan. */
export async function keepChosenPlan(config: AppConfig, planId: string | null): Promise<string | null> {
  return planId && PLAN_ID.test(planId) ? siteCookies(config).plan.serialize(planId) : null;
}

export async function chosenPlanOf(request: Request, config: AppConfig): Promise<string | null> {
  const kept: unknown = await siteCookies(config).plan.parse(request.headers.get("cookie"));
  return typeof kept === "string" && PLAN_ID.test(kept) ? kept : null;
}

export async function forgetChosenPlan(config: AppConfig): Promise<string> {
  return siteCookies(config).plan.serialize("", { maxAge: 0 });
}
