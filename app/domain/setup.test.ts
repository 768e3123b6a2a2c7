import { describe, expect, it } from "vitest";
import { activeSetupSteps, nextSetupStep, resumeSetupStep, setupDestination } from "./setup";

describe("setup steps", () => {
  it("runs profile then membership", () => {
    expect(activeSetupSteps({ free: false }).map((s) => s.id)).toEqual(["profile", "membership"]);
    expect(nextSetupStep("profile", { free: false })).toBe("membership");
    expect(nextSetupStep("membership", { free: false })).toBeNull();
  });

  it("skips the membership step when the community is free", () => {
    expect(activeSetupSteps({ free: true }).map((s) => s.id)).toEqual(["profile"]);
    expect(nextSetupStep("profile", { free: true })).toBeNull();
    expect(resumeSetupStep("membership", { free: true })).toBe("profile");
  });

  it("resumes at the recorded step, or the first one", () => {
    expect(resumeSetupStep("membership", { free: false })).toBe("membership");
    expect(resumeSetupStep(null, { free: false })).toBe("profile");
    expect(resumeSetupStep("bogus", { free: false })).toBe("profile");
  });
});

describe("setupDestination", () => {
  const paid = { free: false };
  it.each([
    // [address step, recorded step, where it leads] — steps are taken in order, a done one may be opened again
    [undefined, "profile", { redirect: "/setup/profile" }],
    ["profile", "profile", { step: "profile" }],
    ["membership", "profile", { redirect: "/setup/profile" }],
    [undefined, "membership", { redirect: "/setup/membership" }],
    ["membership", "membership", { step: "membership" }],
    // spec §2.4 "plus the profile": a member on the membership step still reaches their profile
    ["profile", "membership", { step: "profile" }],
    ["bogus", "membership", { redirect: "/setup/membership" }],
  ] as const)("/setup/%s with the step %s recorded → %j", (code, recorded, expected) => {
    expect(setupDestination(code, { needsSetup: true, setupStep: recorded }, paid)).toEqual(expected);
  });

  it("sends a member whose setup is done home", () => {
    expect(setupDestination("profile", { needsSetup: false, setupStep: null }, paid)).toEqual({ redirect: "/" });
  });
});
