import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { afterLogin, guard, isPublicPath, safeRedirectPath, setupFirstMessage } from "./guard";

const member = { userId: "u1", needsSetup: false };
const newbie = { userId: "u2", needsSetup: true };

describe("navigation guard (spec §2.3)", () => {
  it.each([
    "/",
    "/login",
    "/login/help",
    "/logout",
    "/signup",
    "/signup/terms",
    "/setup",
    "/setup/profile",
    "/subscription",
    "/terms-of-service",
    "/privacy-policy",
    "/c/welcome",
    "/sso",
    "/community/join",
    "/g/inpower",
    "/newsletter-subscribe",
  ])("'The first path segment decides whether a page is public': %s is public", (path) => {
    expect(isPublicPath(path)).toBe(true);
    expect(guard(path, "", null)).toEqual({ kind: "allow" });
  });

  it.each(["/members", "/profile", "/nol/creator", "/admin", "/coupon/discounts", "/loading", "/lrmx"])(
    "'Any other path needs a signed-in user': %s sends a visitor to /login",
    (path) => {
      expect(isPublicPath(path)).toBe(false);
      expect(guard(path, "?a=1", null)).toEqual({ kind: "login", remember: `${path}?a=1` });
    },
  );

  it("'the requested path is remembered as the after-login target (except for the logout segment)'", () => {
    expect(guard("/members/42", "", null)).toEqual({ kind: "login", remember: "/members/42" });
  });

  it("'A signed-in user who still needs setup is sent to /setup'", () => {
    expect(guard("/members", "", newbie)).toEqual({ kind: "setup" });
    expect(guard("/profile", "", newbie)).toEqual({ kind: "setup" });
  });

  it("lets a member who needs setup see the public pages, setup itself among them", () => {
    expect(guard("/", "", newbie)).toEqual({ kind: "allow" });
    expect(guard("/setup/profile", "", newbie)).toEqual({ kind: "allow" });
    expect(guard("/logout", "", newbie)).toEqual({ kind: "allow" });
  });

  it("lets a member who needs setup delete their account, and nothing else of their profile", () => {
    expect(guard("/profile/delete", "", newbie)).toEqual({ kind: "allow" });
    expect(guard("/profile/delete/", "", newbie)).toEqual({ kind: "allow" });
    expect(guard("/profile/security", "", newbie)).toEqual({ kind: "setup" });
    expect(guard("/profile/delete", "", null)).toEqual({ kind: "login", remember: "/profile/delete" });
  });

  it("says on setup why a page asked for led there, naming the respondents", () => {
    expect(setupFirstMessage("/respondents")).toBe(
      "Finish setup to add respondents: their pages open once it is done.",
    );
    expect(setupFirstMessage("/search-for-a-respondent")).toMatch(/^Finish setup to add respondents/);
    expect(setupFirstMessage("/profile")).toBe("Finish setup first: the page you asked for opens once it is done.");
    expect(setupFirstMessage("/db/mail_outbox")).toMatch(
      /^The site's records, the mail outbox among them, are for administrators/,
    );
    // Logging in leads on to setup without a page asked for: nothing to explain.
    expect(setupFirstMessage("/redirect-login-success")).toBeNull();
  });

  it("lets a signed-in member through", () => {
    expect(guard("/members", "", member)).toEqual({ kind: "allow" });
  });
});

describe("the Support page", () => {
  it("is open to visitors, for the footer's Support link without JavaScript", () => {
    expect(guard("/support", "", null)).toEqual({ kind: "allow" });
  });
});

describe("the sandbox notary's signer pages", () => {
  it("open to whoever has the access URL, signed in or not, set up or not", () => {
    const page = "/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA";
    expect(guard(page, "?return=%2Fnol", null)).toEqual({ kind: "allow" });
    expect(guard(`${page}/document`, "", null)).toEqual({ kind: "allow" });
    expect(guard(page, "", newbie)).toEqual({ kind: "allow" });
    expect(isPublicPath("/notaryx")).toBe(false);
  });
});

describe("framed pages", () => {
  it.each(["/lrm", "/lrm/header", "/lrm/iframe", "/embed/nols"])(
    "serve %s to a visitor, who signs in inside it",
    (path) => {
      expect(guard(path, "", null)).toEqual({ kind: "allow" });
    },
  );
});

describe("/redirect-login-success (spec §2.3)", () => {
  const none = { ssoSearch: null, remembered: null, afterLoginRedirect: null };

  it("'goes to the saved SSO address (or /sso) if SSO search parameters were stored'", () => {
    expect(afterLogin({ ...none, ssoSearch: "?target=course-1", remembered: "/members" })).toEqual({
      kind: "redirect",
      to: "/sso?target=course-1",
    });
  });

  it("'Otherwise it goes to the remembered after-login path'", () => {
    expect(afterLogin({ ...none, remembered: "/members", afterLoginRedirect: "https://learn.example.org" })).toEqual({
      kind: "redirect",
      to: "/members",
    });
  });

  it("'Otherwise, if the environment configures an after-login redirect, it navigates the top window there'", () => {
    expect(afterLogin({ ...none, afterLoginRedirect: "https://learn.example.org/home" })).toEqual({
      kind: "top",
      url: "https://learn.example.org/home",
    });
  });

  it("'Otherwise it goes to /'", () => {
    expect(afterLogin(none)).toEqual({ kind: "redirect", to: "/" });
  });

  it("ignores a remembered path that would leave the site", () => {
    expect(afterLogin({ ...none, remembered: "//evil.example.org" })).toEqual({ kind: "redirect", to: "/" });
  });
});

describe("safeRedirectPath", () => {
  it.each([
    ["/members?x=1", "/members?x=1"],
    ["//evil.example.org", "/"],
    ["/\\evil.example.org", "/"],
    ["https://evil.example.org", "/"],
    ["javascript:alert(1)", "/"],
    ["/ok\nSet-Cookie: x", "/"],
    [undefined, "/"],
    [42, "/"],
    // A Location header carries Latin-1 only: anything else is percent-encoded as UTF-8.
    ["/members/\u2603", "/members/%E2%98%83"],
    ["/nol/creator?x=\u{1F600}", "/nol/creator?x=%F0%9F%98%80"],
    ["/caf\u00e9", "/caf%C3%A9"],
    ["/a b", "/a%20b"],
    ["/already%E2%98%83?q=%20", "/already%E2%98%83?q=%20"],
    // A lone surrogate has no UTF-8 form: the target is dropped.
    ["/x\uD800", "/"],
    ["/x\u0085y", "/"],
    ["/\u2603/../evil", "/%E2%98%83/../evil"],
  ])("%s → %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it("never returns a character a header cannot carry, nor a path that leaves the site", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string({ unit: "binary" }).map((s) => `/${s}`),
        ),
        (input) => {
          const path = safeRedirectPath(input, "");
          expect(path === "" || /^\/(?![/\\])[\x21-\x7e]*$/.test(path)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("afterLogin keeps every target header-safe", () => {
  it("encodes a stored SSO search and drops a remembered target that is not a same-site path", () => {
    expect(afterLogin({ ssoSearch: "?target=\u2603", remembered: null, afterLoginRedirect: null })).toEqual({
      kind: "redirect",
      to: "/sso?target=%E2%98%83",
    });
    expect(afterLogin({ ssoSearch: null, remembered: "/members/\u{1F600}", afterLoginRedirect: null })).toEqual({
      kind: "redirect",
      to: "/members/%F0%9F%98%80",
    });
    expect(afterLogin({ ssoSearch: null, remembered: "https://evil.example.org", afterLoginRedirect: null })).toEqual({
      kind: "redirect",
      to: "/",
    });
  });
});
