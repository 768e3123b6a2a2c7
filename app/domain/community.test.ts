import { describe, expect, it } from "vitest";
import { communityFor, footerName, groupFor, groupStanding } from "./community";

describe("community variants", () => {
  it("names the default community and the church-like group differently", () => {
    expect(communityFor("default").name).not.toBe(communityFor("church").name);
    expect(communityFor("church").description).toMatch(/fellowship/i);
  });

  it("'The footer shows the group from the path /g/{group}, else the configured community'", () => {
    const community = communityFor("default");
    expect(footerName("/g/inpower", community)).toBe("InPower");
    expect(footerName("/g/rev18/anything", community)).toBe("Rev 18");
    expect(footerName("/g/unknown", community)).toBe(community.name);
    expect(footerName("/profile", community)).toBe(community.name);
  });

  it("knows the two groups", () => {
    expect(groupFor("inpower")?.name).toBe("InPower");
    expect(groupFor("nope")).toBeNull();
    expect(groupFor("constructor")).toBeNull();
    expect(footerName("/g/toString", communityFor("default"))).toBe(communityFor("default").name);
  });
});

describe("groupStanding", () => {
  it("is pending while the joining payment is under way, joined once it succeeded, none otherwise", () => {
    for (const status of ["open", "requires_action", "processing"]) {
      expect(groupStanding({ status, groupName: "Friends" })).toEqual({ state: "pending", group: "Friends" });
    }
    expect(groupStanding({ status: "succeeded", groupName: "Friends" })).toEqual({ state: "joined", group: "Friends" });
    expect(groupStanding({ status: "failed", groupName: "Friends" })).toEqual({ state: "none" });
    expect(groupStanding({ status: "succeeded", groupName: null })).toEqual({ state: "none" });
    expect(groupStanding(null)).toEqual({ state: "none" });
  });
});
