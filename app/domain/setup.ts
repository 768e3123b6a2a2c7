import { z } from "zod";
import { requiredText } from "./account";
import { parseAmount, type PlanOffer } from "./billing";
import { checkoutChoiceSchema } from "./checkout-form";

/**
 * Setup is an ordered list of steps a new member completes before using the site. A step
 * may be skipped by configuration (the membership step when the community is free).
 */
export type SetupStepId = "profile" | "membership";

export type SetupContext = { free: boolean };

export const SETUP_STEPS: { id: SetupStepId; title: string; skip?: (ctx: SetupContext) => boolean }[] = [
  { id: "profile", title: "Your details" },
  { id: "membership", title: "Membership", skip: (ctx) => ctx.free },
];

export function activeSetupSteps(ctx: SetupContext) {
  return SETUP_STEPS.filter((step) => !step.skip?.(ctx));
}

export function isSetupStep(value: unknown): value is SetupStepId {
  return SETUP_STEPS.some((step) => step.id === value);
}

/** The step after `current`, or null when setup is complete. */
export function nextSetupStep(current: SetupStepId, ctx: SetupContext): SetupStepId | null {
  const steps = activeSetupSteps(ctx);
  const index = steps.findIndex((step) => step.id === current);
  return steps[index + 1]?.id ?? null;
}

/** Where a member resumes: their recorded step if it is still active, else the first one. */
export function resumeSetupStep(recorded: string | null, ctx: SetupContext): SetupStepId {
  const steps = activeSetupSteps(ctx);
  return steps.find((step) => step.id === recorded)?.id ?? steps[0]!.id;
}

/** What a setup step's page shows: the steps, the member's details, and the step's choices. */
export type SetupPage = {
  step: SetupStepId;
  steps: { id: SetupStepId; title: string }[];
  name: string;
  country: string;
  countries: { code: string; name: string }[];
  /** The plans with what each includes and its price with the offer the member arrived with. */
  plans: PlanOffer[];
  /** The plan the member chose before signing up (on a coupon landing or /subscription), preselected. */
  chosen: string | null;
  sandbox: boolean;
  /** The offer the member arrived with, included in the prices shown. */
  coupon: { slug: string; name: string; description: string } | null;
  /** The pay form's attempt id: a second submit of it is the same checkout. */
  attempt: string;
};

/**
 * Where a setup address leads: a member whose setup is done goes home; steps are taken in
 * order, so a step not reached yet (or no step) goes to the one to resume. A step already
 * done may be opened again: the profile step is the profile of a member still in setup,
 * whom the guard keeps off /profile (spec §2.3, §2.4 "plus the profile").
 */
export function setupDestination(
  code: string | undefined,
  member: { needsSetup: boolean; setupStep: string | null },
  ctx: SetupContext,
): { step: SetupStepId } | { redirect: string } {
  if (!member.needsSetup) return { redirect: "/" };
  const steps = activeSetupSteps(ctx).map((step) => step.id);
  const resume = resumeSetupStep(member.setupStep, ctx);
  const reached = steps.slice(0, steps.indexOf(resume) + 1);
  const asked = reached.find((step) => step === code);
  return asked ? { step: asked } : { redirect: `/setup/${resume}` };
}

export const profileStepSchema = z.object({
  name: requiredText("Enter your name", 120, "Use at most 120 characters"),
  country: z
    .string({ required_error: "Choose your country" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Choose your country"),
});

/** The membership step: a plan, the amount of a donation, and the card. */
export const membershipStepSchema = checkoutChoiceSchema;

/** "25" or "25.00" as 2500 cents; no amount as null. */
export function amountToCents(amount: string | undefined): number | null {
  return amount ? parseAmount(amount) : null;
}
