import { describe, expect, it } from "vitest";
import {
  crossSiteWrite,
  isStaticAsset,
  dependsOnSession,
  firstForwardedHost,
  originFormTarget,
  hasNul,
  holdsNul,
  normalisedPath,
  nulFields,
  resolvedPath,
  nulMessage,
  nulPaths,
  redactUrl,
  unsupportedMethod,
  wellFormed,
  wellFormedJsonText,
  type WriteRequest,
} from "./requests";

describe("request rules", () => {
  it("spots a NUL character, raw, percent-encoded or JSON-escaped", () => {
    expect(hasNul("a\u0000b")).toBe(true);
    expect(hasNul("/login?x=%00")).toBe(true);
    expect(hasNul('{"m":"\\u0000"}')).toBe(true);
    expect(hasNul("plain text")).toBe(false);
  });

  it.each([
    ["TRACE", true],
    ["trace", true],
    ["CONNECT", true],
    ["GET", false],
    ["POST", false],
    ["OPTIONS", false],
    ["PROPFIND", false],
  ])("%s is a method no route takes: %s", (method, expected) => {
    expect(unsupportedMethod(method)).toBe(expected);
  });

  it.each([
    ["a lone high surrogate", "a\ud83db", "a\ufffdb"],
    ["a lone low surrogate", "a\ude00b", "a\ufffdb"],
    ["a whole character", "a\ud83d\ude00b", "a\ud83d\ude00b"],
    ["plain text", "plain", "plain"],
  ])("makes text well formed: %s", (_what, text, expected) => {
    expect(wellFormed(text)).toBe(expected);
  });

  it.each([
    ["an escaped lone high surrogate", String.raw`{"a":"x\ud83dy"}`, String.raw`{"a":"x\ufffdy"}`],
    ["an escaped lone low surrogate", String.raw`{"a":"\ude00"}`, String.raw`{"a":"\ufffd"}`],
    ["a key's", String.raw`{"\ud800":1}`, String.raw`{"\ufffd":1}`],
    ["an escaped pair, kept", String.raw`{"a":"\ud83d\ude00"}`, String.raw`{"a":"\ud83d\ude00"}`],
    ["text that only looks like an escape", String.raw`{"a":"\\ud83d"}`, String.raw`{"a":"\\ud83d"}`],
    ["an escape after an escaped backslash", String.raw`{"a":"\\\ud83d"}`, String.raw`{"a":"\\\ufffd"}`],
    ["two lone halves in the wrong order", String.raw`["\ude00\ud83d"]`, String.raw`["\ufffd\ufffd"]`],
  ])("makes JSON text's escapes well formed: %s", (_what, text, expected) => {
    expect(wellFormedJsonText(text)).toBe(expected);
    expect(() => JSON.parse(wellFormedJsonText(text)) as unknown).not.toThrow();
  });

  it("spots U+0000 itself in text already decoded: its escapes there are plain characters", () => {
    expect(holdsNul("a\u0000b")).toBe(true);
    expect(holdsNul("100%00 off")).toBe(false);
    expect(holdsNul("C:\\u0000")).toBe(false);
  });

  it.each([
    [
      "no field holds it",
      [
        ["a", "1"],
        ["b", "two"],
      ],
      [],
    ],
    [
      "a field's text",
      [
        ["name", "Ann"],
        ["cf_version", "a\u0000b"],
      ],
      ["cf_version"],
    ],
    ["a field's name", [["a\u0000", "x"]], [""]],
    [
      "two fields, one of them twice",
      [
        ["x", "\u0000"],
        ["y", "\u0000"],
        ["x", "\u0000"],
      ],
      ["x", "y"],
    ],
    ["a file, whatever its bytes", [["doc", new Blob(["\u0000"])]], []],
  ] as const)("names the form's fields holding U+0000: %s", (_what, entries, fields) => {
    expect(nulFields(entries)).toEqual(fields);
  });

  it.each([
    ["nothing", { a: ["x", 1, true, null], b: { c: "%00 and \\u0000 are text" } }, []],
    ["the body itself", "\u0000", [""]],
    ["a text deep inside", [{ time: "t", message: "a\u0000" }], ["0.message"]],
    ["a key, by the object holding it", { data: { "k\u0000": 1 } }, ["data"]],
    ["several places", { a: "\u0000", b: ["\u0000"] }, ["a", "b.0"]],
  ] as const)("finds U+0000 in a JSON value: %s", (_what, value, paths) => {
    expect(nulPaths(value)).toEqual(paths);
  });

  it("reads a value nested deeper than the call stack goes", () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}"\\u0000"${"]".repeat(200_000)}`) as unknown;
    expect(nulPaths(deep)).toEqual([`${"0.".repeat(100)}…`]);
  });

  it("names at most ten places, however many there are", () => {
    expect(nulPaths(Array.from({ length: 1_000 }, () => "\u0000"))).toHaveLength(10);
    expect(nulFields(Array.from({ length: 1_000 }, (_, i) => [`f${i}`, "\u0000"] as const))).toHaveLength(10);
  });

  it("says where to leave it out", () => {
    expect(nulMessage(["cf_version"])).toBe("A NUL character (U+0000) cannot be stored: leave it out of cf_version");
    expect(nulMessage(["a", "b.0"])).toBe("A NUL character (U+0000) cannot be stored: leave it out of a, b.0");
  });

  const HOST = "members.example.org";
  const write = (fields: Partial<WriteRequest>): WriteRequest => ({
    method: "POST",
    path: "/logout",
    origin: undefined,
    referer: undefined,
    host: HOST,
    forwardedHost: undefined,
    trustForwarded: false,
    signed: false,
    ...fields,
  });

  it.each([
    ["POST", "https://evil.example", HOST, true],
    ["POST", "null", HOST, true],
    ["POST", "https://members.example.org", HOST, false],
    ["GET", "https://evil.example", HOST, false],
    ["DELETE", "not a url", HOST, true],
  ] as const)("%s from %s to %s is cross-site: %s", (method, origin, host, expected) => {
    expect(crossSiteWrite(write({ method, origin, host }))).toBe(expected);
  });

  it.each([
    ["no Origin and no Referer", {}, true],
    ["no Origin, this site's Referer", { referer: "https://members.example.org/profile" }, false],
    ["no Origin, another site's Referer", { referer: "https://evil.example/members.example.org" }, true],
    ["no Origin, a Referer that is not a URL", { referer: "/profile" }, true],
    [
      "another site's Origin and this site's Referer",
      { origin: "https://evil.example", referer: `https://${HOST}/` },
      true,
    ],
    ["a signed state-header call without Origin", { path: "/api/creator/auth", signed: true }, false],
    ["a Cognito webhook without browser headers", { path: "/api/forms/cognito/s3cr3t/submit" }, false],
    ["a Stripe webhook without browser headers", { path: "/api/webhooks/stripe" }, false],
    ["a mail server's one-click unsubscribe without browser headers", { path: "/reminders/unsubscribe" }, false],
    [
      "a one-click unsubscribe with its mail provider's Origin",
      { path: "/reminders/unsubscribe", origin: "https://mail.example" },
      false,
    ],
    [
      "an unsubscribe look-alike path from another site",
      { path: "/reminders/unsubscribe/x", origin: "https://evil.example" },
      true,
    ],
    ["a webhook path reached through dot segments", { path: "/api/forms/cognito/%2e%2e/%2e%2e/%2e%2e/logout" }, true],
    ["an Origin that is not the forwarded host", { origin: `https://${HOST}`, forwardedHost: "evil.example" }, true],
    [
      "an Origin that is the forwarded host but not the Host, from a client",
      { origin: "https://evil.example", forwardedHost: "evil.example" },
      true,
    ],
    [
      "an Origin that is the forwarded host, from a trusted proxy",
      { origin: `https://${HOST}`, host: "memberhall_upstream", forwardedHost: HOST, trustForwarded: true },
      false,
    ],
    [
      "an Origin that is not the forwarded host, from a trusted proxy",
      { origin: `https://${HOST}`, host: HOST, forwardedHost: "evil.example", trustForwarded: true },
      true,
    ],
    [
      "no Origin, a Referer of the forwarded host, from a trusted proxy",
      { referer: `https://${HOST}/profile`, host: "127.0.0.1:3001", forwardedHost: HOST, trustForwarded: true },
      false,
    ],
    [
      "an Origin that is the Host and the forwarded host alike",
      { origin: `https://${HOST}`, forwardedHost: HOST },
      false,
    ],
    ["a GET without any", { method: "GET" }, false],
    ["a HEAD without any", { method: "HEAD" }, false],
  ] as const)("a write with %s is refused: %s", (_what, fields, expected) => {
    expect(crossSiteWrite(write(fields))).toBe(expected);
  });

  it.each([
    [undefined, undefined],
    ["", undefined],
    ["members.example.org", "members.example.org"],
    [" a.example:8443 , b.example", "a.example:8443"],
    [["c.example", "d.example"], "c.example"],
  ] as const)("reads the forwarded host of %j as %j", (header, expected) => {
    expect(firstForwardedHost(header as string | string[] | undefined)).toBe(expected);
  });

  it.each([
    ["/login?next=%2F", "members.example.org", "/login?next=%2F"],
    ["http://members.example.org/login?x=1", "members.example.org", "/login?x=1"],
    ["HTTPS://Members.Example.org:8443/", "members.example.org:8443", "/"],
    ["http://other.example/", "members.example.org", null],
    ["http://members.example.org/", undefined, null],
    ["*", "members.example.org", null],
    ["members.example.org:443", "members.example.org", null],
    ["ftp://members.example.org/", "members.example.org", null],
    ["http://[::1/", "members.example.org", null],
  ] as const)("reads the request target %s for Host %s as %j", (target, host, expected) => {
    expect(originFormTarget(target, host)).toBe(expected);
  });

  it("keeps webhook secrets out of logged URLs", () => {
    expect(redactUrl("/api/forms/cognito/s3cr3t/submit?x=1")).toBe("/api/forms/cognito/[secret]/submit?x=1");
    expect(redactUrl("/profile")).toBe("/profile");
  });

  it.each([
    ["/login/reset?token=abc-123", "/login/reset?token=[secret]"],
    ["/signup/verify?token=abc&next=%2F", "/signup/verify?token=[secret]&next=%2F"],
    ["/api/login/lrm-auth?auth_code=c0de&hash=f00d", "/api/login/lrm-auth?auth_code=[secret]&hash=[secret]"],
    ["/newsletter-subscribe?confirm=t1", "/newsletter-subscribe?confirm=[secret]"],
    [
      "https://members.example.org/newsletter-subscribe?UNSUBSCRIBE=t2#x",
      "https://members.example.org/newsletter-subscribe?UNSUBSCRIBE=[secret]#x",
    ],
    ["/nol/creator?tokenish=1&cause=TS", "/nol/creator?tokenish=1&cause=TS"],
  ])("keeps the one-time token of %s out of logs", (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });

  it.each([
    ["/embed/nols", "/embed/nols"],
    ["/embed/%2e%2e/login", "/login"],
    ["/embed/%2E%2E/%2e%2e/admin", "/admin"],
    ["/embed/..%2flogin", "/login"],
    ["/embed/./nols", "/embed/nols"],
    ["/lrm/../profile", "/profile"],
    ["/c/caf%C3%A9", "/c/café"],
    ["//x", "//x"],
    ["/../..", "/"],
  ])("%s names the page %s", (raw, pathname) => {
    expect(normalisedPath(raw)).toBe(pathname);
  });

  it.each(["/%5C", "/%5c", "/%", "/%E0%A4%A", "/a/%5Cb", "/%0a", "/x%7F"])("%s names no page", (raw) => {
    expect(normalisedPath(raw)).toBeNull();
  });

  it("answers a plain path as the full resolution does, and only a plain one at once", () => {
    const alphabet = ["a", "Z", "0", "-", "_", ".", "~", "/", "%2e", "%2F", "é", "\\", "..", "//"];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 5_000; i += 1) {
      const length = 1 + (next() % 8);
      const raw = `/${Array.from({ length }, () => alphabet[next() % alphabet.length]).join("")}`;
      expect(normalisedPath(raw), raw).toBe(resolvedPath(raw));
    }
  });

  it.each([
    ["the session cookie", { cookie: "mh_coupon=x; mh_session=abc", state: false }, [], true],
    ["only other cookies", { cookie: "mh_coupon=x; not_mh_session=abc", state: false }, [], false],
    ["no cookie", { cookie: undefined, state: false }, [], false],
    ["the state headers", { cookie: undefined, state: true }, [], true],
    [
      "an answer that sets the session",
      { cookie: undefined, state: false },
      ["mh_session=new; Path=/; HttpOnly"],
      true,
    ],
    ["an answer that sets another cookie", { cookie: undefined, state: false }, ["mh_flash=x; Path=/"], false],
  ] as const)("an answer to a request with %s depends on the session: %s", (_what, request, setCookies, expected) => {
    expect(dependsOnSession(request, [...setCookies], "mh_session")).toBe(expected);
  });
});

describe("isStaticAsset", () => {
  it.each([
    "/build/root-ABC.js",
    "/build/_assets/tailwind-1.css",
    "/favicon.ico",
    "/favicon.svg",
    "/robots.txt",
    "/fonts/a.woff2",
    "/build/x.js?v=1",
  ])("reads %s as a static file", (url) => expect(isStaticAsset(url)).toBe(true));

  it.each([
    "/",
    "/login",
    "/nol/creator/traffic-stop",
    "/api/config",
    "/nol/creator/ts/proof-of-service.pdf",
    "/nol/creator/ts/calendar.ics",
    "/members/export.csv",
    "/builds",
  ])("reads %s as a page, a document or an API call", (url) => expect(isStaticAsset(url)).toBe(false));
});
