import { describe, expect, it } from "vitest";
import { communityLinksSchema, LINK_NOT_HTTPS, LINK_TOO_LONG } from "./community-links";

const long = `https://community.example.org/${"a".repeat(480)}`;

describe("the community links form (spec §3 mnInviteLink, mightyLinks)", () => {
  it.each([
    ["an https address", "https://community.example.org/invite", null],
    ["an address with spaces around it", "  https://community.example.org/invite ", null],
    ["text that is no address", "not a link", LINK_NOT_HTTPS],
    ["a javascript: address", "javascript:alert(1)", LINK_NOT_HTTPS],
    ["a JavaScript: address in capitals", "JavaScript:alert(document.cookie)", LINK_NOT_HTTPS],
    ["a data: address", "data:text/html,<script>alert(1)</script>", LINK_NOT_HTTPS],
    ["a plain http address", "http://community.example.org/", LINK_NOT_HTTPS],
    ["an address without a host", "https://", LINK_NOT_HTTPS],
    ["an address with a tab inside", "https://community.example.org/\tx", LINK_NOT_HTTPS],
    ["an address over 500 characters", long, LINK_TOO_LONG],
  ])("takes or refuses %s", (_, value, error) => {
    for (const input of [
      { intent: "save-links", mnInviteLink: value },
      { intent: "save-links", mightyLinks: { TS: value } },
    ]) {
      const parsed = communityLinksSchema.safeParse(input);
      expect(parsed.success ? null : parsed.error.issues.map((i) => i.message)).toEqual(error ? [error] : null);
    }
  });

  it("leaves out a link not given, and keeps the others trimmed", () => {
    const intent = "save-links";
    expect(communityLinksSchema.parse({ intent, mightyLinks: { TS: " https://a.example/ts " } })).toEqual({
      intent,
      mightyLinks: { TS: "https://a.example/ts" },
    });
    expect(communityLinksSchema.parse({ intent })).toEqual({ intent, mightyLinks: {} });
    expect(communityLinksSchema.parse({ intent, mnInviteLink: "  ", mightyLinks: { TS: "", PS: " " } })).toEqual({
      intent,
      mnInviteLink: undefined,
      mightyLinks: { TS: undefined, PS: undefined },
    });
  });

  it("takes only what the settings page sends: an empty post clears nothing", () => {
    const parsed = communityLinksSchema.safeParse({});
    expect(parsed.success ? null : parsed.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["intent", "Send the links from the settings page"],
    ]);
  });

  it("takes cause codes only as the keys of the spaces", () => {
    for (const code of ["__proto__x", "ts"]) {
      const parsed = communityLinksSchema.safeParse({
        intent: "save-links",
        mightyLinks: { [code]: "https://a.example/" },
      });
      expect(parsed.success, code).toBe(false);
    }
  });
});
