import { describe, expect, it } from "vitest";
import { isHttpsUrl, safeLinkHref } from "./links";

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
