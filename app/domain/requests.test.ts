import { describe, expect, it } from "vitest";
import { crossSiteWrite, hasNul, redactUrl } from "./requests";

describe("request rules", () => {
  it("spots a NUL character, raw, percent-encoded or JSON-escaped", () => {
    expect(hasNul("a\u0000b")).toBe(true);
    expect(hasNul("/login?x=%00")).toBe(true);
    expect(hasNul('{"m":"\\u0000"}')).toBe(true);
    expect(hasNul("plain text")).toBe(false);
  });

  it.each([
    ["POST", "https://evil.example", "members.example.org", true],
    ["POST", "null", "members.example.org", true],
    ["POST", "https://members.example.org", "members.example.org", false],
    ["POST", undefined, "members.example.org", false],
    ["GET", "https://evil.example", "members.example.org", false],
    ["DELETE", "not a url", "members.example.org", true],
  ] as const)("%s from %s to %s is cross-site: %s", (method, origin, host, expected) => {
    expect(crossSiteWrite(method, origin, host)).toBe(expected);
  });

  it("keeps webhook secrets out of logged URLs", () => {
    expect(redactUrl("/api/forms/cognito/s3cr3t/submit?x=1")).toBe("/api/forms/cognito/[secret]/submit?x=1");
    expect(redactUrl("/profile")).toBe("/profile");
  });
});
