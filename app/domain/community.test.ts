import { describe, expect, it } from "vitest";
import { communityFor, footerName, groupFor } from "./community";

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
