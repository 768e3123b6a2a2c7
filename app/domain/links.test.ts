import { describe, expect, it } from "vitest";
import { isHttpsUrl, safeLinkHref, textWithLinks } from "./links";

describe("safeLinkHref: only https: addresses and this site's own paths become links", () => {
  it.each([
    [
      "https://www.cognitoforms.com/community/nolcreator2/41#edit*",
      "https://www.cognitoforms.com/community/nolcreator2/41#edit*",
    ],
    ["HTTPS://example.org/a", "HTTPS://example.org/a"],
    ["/nol/seemless/187/abc%2A?entry=%7B%7D", "/nol/seemless/187/abc%2A?entry=%7B%7D"],
    ["/", "/"],
  ])("keeps %s", (value, href) => {
    expect(safeLinkHref(value)).toBe(href);
  });

  it.each([
    ["javascript:alert(1)"],
    ["JavaScript:alert(1)"],
    [" javascript:alert(1)"],
    ["java\tscript:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["vbscript:msgbox(1)"],
    ["http://example.org/"],
    ["ftp://example.org/"],
    ["//evil.example/path"],
    ["/\\evil.example/path"],
    ["/\t/evil.example"],
    ["\n/path"],
    ["https:evil.example"],
    ["relative/path"],
    [""],
    [null],
    [undefined],
  ])("refuses %j", (value) => {
    expect(safeLinkHref(value)).toBeNull();
  });
});

describe("isHttpsUrl: what a hosted form's entry link may be", () => {
  it.each([
    ["https://www.cognitoforms.com/forms/edit#abc*", true],
    ["/nol/seemless/187/abc", false],
    ["http://www.cognitoforms.com/", false],
    ["javascript:alert(1)", false],
    ["data:text/html,hi", false],
  ])("%s → %s", (value, expected) => {
    expect(isHttpsUrl(value)).toBe(expected);
  });
});

describe("textWithLinks", () => {
  it("cuts a mail's text into its words and its addresses", () => {
    expect(textWithLinks("Open http://localhost:3000/signup/verify?token=abc-123.\nThanks")).toEqual([
      { text: "Open " },
      { href: "http://localhost:3000/signup/verify?token=abc-123" },
      { text: ".\nThanks" },
    ]);
  });

  it("leaves a text without addresses whole, and takes only http and https", () => {
    expect(textWithLinks("No link here")).toEqual([{ text: "No link here" }]);
    expect(textWithLinks("javascript:alert(1) ftp://x")).toEqual([{ text: "javascript:alert(1) ftp://x" }]);
    expect(textWithLinks("https://a.example/x")).toEqual([{ href: "https://a.example/x" }]);
  });
});
