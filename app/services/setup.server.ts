import { COMPLIMENTARY_STATUS, shownStatus } from "~/domain/complimentary";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { countries, plans, users } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { activeSetupSteps, nextSetupStep, type SetupPage, type SetupStepId } from "~/domain/setup";
import { billingCatalogue, couponOfSlug } from "./billing/catalogue.server";
import { startCheckout, type CheckoutRow } from "./billing/checkout.server";
import { audit, actorOf } from "./audit.server";
import type { Viewer } from "./session.server";

/** Setup (spec §2.3): the steps a new member takes before using the site, and re-joining. */

export async function setupPage(
  services: AppServices,
  viewer: Viewer,
  step: SetupStepId,
  couponSlug: string | null = null,
  chosenPlan: string | null = null,
): Promise<SetupPage> {
  const { db, config } = services;
  const steps = activeSetupSteps({ free: config.free }).map(({ id, title }) => ({ id, title }));
  const catalogue = await billingCatalogue(services, couponSlug);
  const base = {
    step,
    steps,
    name: viewer.member.name ?? "",
    country: viewer.member.countryCode ?? "",
    coupon: catalogue.coupon,
    chosen: null,
    attempt: randomUUID(),
  };
  if (step === "profile") {
    const list = await db
      .select({ code: countries.code, name: countries.name })
      .from(countries)
      .orderBy(countries.name);
    return { ...base, countries: list, plans: [], sandbox: false };
  }
  return {
    ...base,
    countries: [],
    plans: catalogue.plans,
    chosen: catalogue.plans.some((entry) => entry.plan.id === chosenPlan) ? chosenPlan : null,
    sandbox: config.payments === "sandbox",
  };
}

const isComplimentaryMembership = (subscription: Viewer["subscription"]) =>
  subscription !== null && shownStatus(subscription) === COMPLIMENTARY_STATUS;

/** Moves the member to the step after `step`, or completes setup. */
async function advanceSetup(services: AppServices, viewer: Viewer, step: SetupStepId) {
  let next = nextSetupStep(step, { free: services.config.free });
  // A member an admin gave a complimentary membership has nothing to choose or pay.
  if (next === "membership" && isComplimentaryMembership(viewer.subscription)) next = null;
  await services.db
    .update(users)
    .set(next ? { setupStep: next } : { setupStep: null, needsSetup: false })
    .where(eq(users.id, viewer.member.id));
  return next;
}

export async function saveProfileStep(
  services: AppServices,
  viewer: Viewer,
  input: { name: string; country: string },
): Promise<{ next: SetupStepId | null }> {
  const [country] = await services.db.select().from(countries).where(eq(countries.code, input.country));
  if (!country) throw invalid("Choose your country from the list", { country: ["Choose your country from the list"] });
  await services.db
    .update(users)
    .set({ name: input.name, countryCode: input.country })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "setup.profile", "user", viewer.member.id, { country: input.country });
  return { next: await advanceSetup(services, viewer, "profile") };
}

/**
 * The membership step: starts the checkout of the plan chosen (with the offer the member came
 * with); the card page takes it from there, and the payment's event completes setup.
 */
export async function startMembershipCheckout(
  services: AppServices,
  viewer: Viewer,
  input: { attempt: string; planId: string; amountCents: number | null; couponSlug: string | null },
): Promise<CheckoutRow> {
  return startCheckout(
    services,
    { viewer },
    { attempt: input.attempt, planId: input.planId, donationCents: input.amountCents, couponSlug: input.couponSlug },
  );
}

/**
 * The checkout of the plan the member chose before signing up, with their offer; null when
 * that plan cannot be bought now (gone, or not a membership), to choose on the membership step.
 */
export async function startChosenPlanCheckout(
  services: AppServices,
  viewer: Viewer,
  input: { planId: string; couponSlug: string | null },
): Promise<CheckoutRow | null> {
  const [plan] = await services.db.select().from(plans).where(eq(plans.id, input.planId));
  if (!plan?.active || plan.kind !== "subscription") return null;
  const offer = input.couponSlug ? await couponOfSlug(services, input.couponSlug) : null;
  return startMembershipCheckout(services, viewer, {
    attempt: randomUUID(),
    planId: plan.id,
    amountCents: null,
    couponSlug: offer?.slug ?? null,
  });
}

/** A lapsed member goes back through the membership step. */
export async function rejoin(services: AppServices, viewer: Viewer): Promise<void> {
  await services.db
    .update(users)
    .set({ needsSetup: true, setupStep: services.config.free ? "profile" : "membership" })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "rejoin", "user", viewer.member.id);
}
