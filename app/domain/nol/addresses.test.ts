import { describe, expect, it } from "vitest";
import { formSegment, ownerParam, ownerQuery, SEAMLESS_PATH, seamlessLink, stepHref } from "./addresses";
import { linkHash } from "./selection";

describe("the NoL addresses", () => {
  it("keeps the spec's /nol/seemless/ address for the seamless page (spec §2.2)", () => {
    expect(SEAMLESS_PATH).toBe("/nol/seemless");
    const link = seamlessLink({ formId: 187, id: "187-3" }, "abcdefghijklmnopqrstuvwxyz012345*");
    expect(link).toBe(
      `/nol/seemless/187/abcdefghijklmnopqrstuvwxyz012345%2A?entry=${encodeURIComponent('{"EntryId":"187-3"}')}`,
    );
    // The selection reads the hash back, "*" and all.
    expect(linkHash(link)).toBe("abcdefghijklmnopqrstuvwxyz012345*");
  });

  it("names NoLCreator2 'creator' in addresses (spec §2.2 'The form value creator')", () => {
    expect(formSegment("NoLCreator2")).toBe("creator");
    expect(formSegment("NoLBilling")).toBe("NoLBilling");
  });

  it("names the owner only when the notices are someone else's", () => {
    expect(ownerQuery(null)).toBe("");
    expect(ownerQuery("cara")).toBe("?username=cara");
    expect(ownerParam("cara")).toBe("&username=cara");
    expect(stepHref("NoLCreator2", "traffic-stop", "mailing", "Spring 2026", null)).toBe(
      "/nol/creator/traffic-stop/mailing?version=Spring%202026",
    );
    expect(stepHref("NoLBilling", "traffic-stop", "true-bill", "v", "cara")).toBe(
      "/nol/NoLBilling/traffic-stop/true-bill?version=v&username=cara",
    );
  });
});
