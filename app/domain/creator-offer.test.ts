import { describe, expect, it } from "vitest";
import { creatorWay, planList, type CreatorWay, type CreatorWayInput } from "./creator-offer";

const plans = ["monthly", "annual"];
const member = { creator: false, admin: false, creatorPlanIds: plans, membership: null };

describe("the way to the NoL creator", () => {
  it.each<[string, CreatorWayInput, CreatorWay | null]>([
    ["a creator needs none", { ...member, creator: true }, null],
    ["a creator admin needs none", { ...member, creator: true, admin: true }, null],
    ["an admin sets their own flag", { ...member, admin: true }, { kind: "admin" }],
    [
      "an admin with a membership still sets their flag",
      { ...member, admin: true, membership: { planId: "supporter", changeable: true } },
      { kind: "admin" },
    ],
    ["a member without a membership subscribes", member, { kind: "subscribe" }],
    [
      "a supporter upgrades to either plan",
      { ...member, membership: { planId: "supporter", changeable: true } },
      { kind: "upgrade", planIds: ["monthly", "annual"] },
    ],
    [
      "a plan that includes it is not offered again",
      { ...member, membership: { planId: "monthly", changeable: true } },
      { kind: "upgrade", planIds: ["annual"] },
    ],
    [
      "a membership that cannot change now goes to billing",
      { ...member, membership: { planId: "supporter", changeable: false } },
      { kind: "billing" },
    ],
    ["no plan including it: support", { ...member, creatorPlanIds: [] }, { kind: "support" }],
  ])("%s", (_, input, way) => {
    expect(creatorWay(input)).toEqual(way);
  });

  it.each([
    [["Monthly membership"], "the Monthly membership"],
    [["Monthly membership", "Annual membership"], "the Monthly membership or the Annual membership"],
  ])("names %j as %s", (titles, text) => {
    expect(planList(titles)).toBe(text);
  });
});
