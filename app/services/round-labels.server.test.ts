import { pino } from "pino";
import { describe, expect, it, vi } from "vitest";
import { labelOfStoredRound } from "./round-labels.server";

describe("the label of a round read from the database", () => {
  it.each([
    [1, "Round 1"],
    [3, "Round 3"],
    [4, "First True Bill"],
    ["Setup Billing", "Setup Billing"],
  ])("names %j as %s and logs nothing", (round, label) => {
    const logger = pino({ level: "silent" });
    const warn = vi.spyOn(logger, "warn");
    expect(labelOfStoredRound(logger, round, "a page")).toBe(label);
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    [0, "Round 0", "Unknown round: 0"],
    [-2, "Round -2", "Unknown round: -2"],
    [null, "Round null", "Unknown round: null"],
  ])("names %j as %s and logs the domain's warning with where it was met", (round, label, warning) => {
    const logger = pino({ level: "silent" });
    const warn = vi.spyOn(logger, "warn");
    expect(labelOfStoredRound(logger, round, "a member's page")).toBe(label);
    expect(warn).toHaveBeenCalledExactlyOnceWith({ round, where: "a member's page" }, warning);
  });

  it("logs one value once per place, however often it is read", () => {
    const logger = pino({ level: "silent" });
    const warn = vi.spyOn(logger, "warn");
    for (let n = 0; n < 5; n++) labelOfStoredRound(logger, 0, "a member's page");
    labelOfStoredRound(logger, 0, "the notarize page");
    labelOfStoredRound(logger, -1, "a member's page");
    expect(warn.mock.calls.map(([fields]) => fields)).toEqual([
      { round: 0, where: "a member's page" },
      { round: 0, where: "the notarize page" },
      { round: -1, where: "a member's page" },
    ]);
  });
});
