import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { countries, plans, users } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { activeSetupSteps, nextSetupStep, type SetupPage, type SetupStepId } from "~/domain/setup";
import { formatMoney } from "~/lib/format";
import { couponOfSlug } from "./billing/catalogue.server";
import { startCheckout, type CheckoutRow } from "./billing/checkout.server";
import { audit, actorOf } from "./audit.server";
import type { Viewer } from "./session.server";

/** Setup (spec §2.3): the steps a new member takes before using the site, and re-joining. */

export async function setupPage(
  services: AppServices,
  viewer: Viewer,
  step: SetupStepId,
  couponSlug: string | null = null,
): Promise<SetupPage> {
  const { db, config } = services;
  const steps = activeSetupSteps({ free: config.free }).map(({ id, title }) => ({ id, title }));
  const offer = couponSlug ? await couponOfSlug(services, couponSlug) : null;
  const base = {
    step,
    steps,
    name: viewer.member.name ?? "",
    country: viewer.member.countryCode ?? "",
    coupon: offer ? { slug: offer.slug, description: offer.coupon.name } : null,
    attempt: randomUUID(),
  };
  if (step === "profile") {
    const list = await db
      .select({ code: countries.code, name: countries.name })
      .from(countries)
      .orderBy(countries.name);
    return { ...base, countries: list, plans: [], sandbox: false };
  }
  const active = await db.select().from(plans).where(eq(plans.active, true)).orderBy(plans.sort);
  return {
    ...base,
    countries: [],
    plans: active.map((plan) => ({
      id: plan.id,
      title: plan.title,
      price: plan.amountCents
        ? `${formatMoney(plan.amountCents, plan.currency)}${plan.interval ? ` a ${plan.interval}` : ""}`
        : null,
    })),
    sandbox: config.payments === "sandbox",
  };
}

/** Moves the member to the step after `step`, or completes setup. */
async function advanceSetup(services: AppServices, viewer: Viewer, step: SetupStepId) {
  const next = nextSetupStep(step, { free: services.config.free });
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

/** A lapsed member goes back through the membership step. */
export async function rejoin(services: AppServices, viewer: Viewer): Promise<void> {
  await services.db
    .update(users)
    .set({ needsSetup: true, setupStep: services.config.free ? "profile" : "membership" })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "rejoin", "user", viewer.member.id);
}
