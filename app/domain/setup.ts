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
