import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { countries, payments, plans, subscriptions, users } from "~/db/schema";
import type { CardInput } from "~/domain/card";
import { DomainError, invalid } from "~/domain/errors";
import { activeSetupSteps, nextSetupStep, type SetupPage, type SetupStepId } from "~/domain/setup";
import { formatMoney } from "~/lib/format";
import { actorOf } from "./accounts.server";
import { audit } from "./audit.server";
import type { Viewer } from "./session.server";

/** Setup (spec §2.3): the steps a new member takes before using the site, and re-joining. */

export const DONATION_MIN_CENTS = 100;
export const DONATION_MAX_CENTS = 1_000_000;

export async function setupPage(services: AppServices, viewer: Viewer, step: SetupStepId): Promise<SetupPage> {
  const { db, config } = services;
  const steps = activeSetupSteps({ free: config.free }).map(({ id, title }) => ({ id, title }));
  const base = { step, steps, name: viewer.member.name ?? "", country: viewer.member.countryCode ?? "" };
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
      price: plan.amountCents ? `${formatMoney(plan.amountCents, plan.currency)} a ${plan.interval}` : null,
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

/** A refusal by the card's issuer: the one setup failure that answers 402 rather than 400. */
export function isCardDeclined(error: DomainError): boolean {
  return error.extra?.cardDeclined === true;
}

export async function saveMembershipStep(
  services: AppServices,
  viewer: Viewer,
  input: { planId: string; amountCents: number | null; card: CardInput },
): Promise<{ next: SetupStepId | null }> {
  const { db } = services;
  const [plan] = await db.select().from(plans).where(eq(plans.id, input.planId));
  if (!plan || !plan.active) throw invalid("Choose a membership", { planId: ["Choose a membership"] });
  const amountCents = plan.kind === "donation" ? input.amountCents : plan.amountCents;
  if (
    plan.kind === "donation" &&
    (amountCents === null || amountCents < DONATION_MIN_CENTS || amountCents > DONATION_MAX_CENTS)
  ) {
    const message = "Enter a donation from 1.00 to 10,000.00";
    throw invalid(message, { amount: [message] });
  }
  const provider = services.providers.payments;
  const result = await provider.startMembership({
    userId: viewer.member.id,
    plan: {
      id: plan.id,
      kind: plan.kind,
      amountCents: plan.amountCents,
      currency: plan.currency,
      interval: plan.interval,
    },
    amountCents: amountCents ?? 0,
    card: input.card,
    now: new Date(),
  });
  if (!result.ok) throw new DomainError("invalid", result.message, { extra: { cardDeclined: true } });
  if (plan.kind === "subscription") {
    await db.insert(subscriptions).values({
      userId: viewer.member.id,
      planId: plan.id,
      status: "ACTIVE",
      provider: provider.name,
      providerSubscriptionId: result.providerRef,
      currentPeriodEnd: result.periodEnd,
    });
  } else {
    await db.insert(payments).values({
      userId: viewer.member.id,
      planId: plan.id,
      kind: "donation",
      amountCents: amountCents!,
      currency: plan.currency,
      status: "succeeded",
      provider: provider.name,
      providerRef: result.providerRef,
    });
  }
  await audit(db, actorOf(viewer), "setup.membership", plan.kind, result.providerRef, { planId: plan.id, amountCents });
  return { next: await advanceSetup(services, viewer, "membership") };
}

/** A lapsed member goes back through the membership step. */
export async function rejoin(services: AppServices, viewer: Viewer): Promise<void> {
  await services.db
    .update(users)
    .set({ needsSetup: true, setupStep: services.config.free ? "profile" : "membership" })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "rejoin", "user", viewer.member.id);
}
