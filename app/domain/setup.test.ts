import { describe, expect, it } from "vitest";
import { activeSetupSteps, nextSetupStep, resumeSetupStep } from "./setup";

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
