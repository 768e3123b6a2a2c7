import { describe, expect, it } from "vitest";
import {
  frameAncestors,
  isDocumentPath,
  isFrameablePath,
  needsDocumentLoad,
  paymentSources,
  contentSecurityPolicy,
} from "./framing";

describe("framing", () => {
  it.each([
    ["/embed/nols", true],
    ["/embed/subscription", true],
    ["/lrm", true],
    ["/lrm/header", true],
    ["/lrm/iframe", true],
    ["/lrmx", false],
    ["/", false],
    ["/login", false],
    ["/admin", false],
    ["/embed", false],
    ["/embed/%2e%2e/login", false],
    ["/embed/%2E%2E/admin", false],
    ["/embed/..%2flogin", false],
    ["/lrm/%2e%2e/profile", false],
    ["/lrm/./header", true],
    ["/profile/../embed/nols", true],
    ["/embed/%E0%A4%A", false],
  ])("%s is frameable: %s", (path, expected) => {
    expect(isFrameablePath(path)).toBe(expected);
  });

  it("lets only the learning site's origin frame the embed pages", () => {
    expect(frameAncestors("/embed/nols", "https://learn.example.org/path/")).toBe("https://learn.example.org");
    expect(frameAncestors("/profile", "https://learn.example.org")).toBe("'none'");
  });

  it("lets only this site frame its documents, the NoL preview and the template editor's", () => {
    expect(isDocumentPath("/api/nol/preview")).toBe(true);
    expect(isDocumentPath("/admin/templates/12/preview")).toBe(true);
    expect(isDocumentPath("/admin/templates/12")).toBe(false);
    expect(isDocumentPath("/admin/templates/x/preview")).toBe(false);
    expect(isDocumentPath("/api/nol/%2e%2e/preview")).toBe(false);
    expect(frameAncestors("/api/nol/preview", "https://learn.example.org")).toBe("'self'");
    expect(frameAncestors("/admin/templates/1/preview", undefined)).toBe("'self'");
  });

  it("refuses all framing when no learning site is configured", () => {
    expect(frameAncestors("/embed/nols", undefined)).toBe("'none'");
  });

  it.each([
    ["/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA/document", true],
    ["/notary/sandbox/x/y/../document", true],
    ["/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", false],
    ["/notary/sandbox/ot_sb_A/document/extra", false],
    ["/notary/sandbox/%2e%2e/%2e%2e/login/document", false],
    ["/login", false],
  ])("lets only this site frame the sandbox notary's document: %s %s", (path, expected) => {
    expect(isDocumentPath(path)).toBe(expected);
    expect(frameAncestors(path, "https://learn.example.org")).toBe(expected ? "'self'" : "'none'");
  });
});

describe("paymentSources", () => {
  it("lets Stripe's script, frames and API in on the card pages only, and only with Stripe", () => {
    expect(paymentSources("/subscription/unsafe/card-plus", "stripe").script).toEqual(["https://js.stripe.com"]);
    expect(paymentSources("/subscription/unsafe/card-plus", "stripe").connect).toEqual(["https://api.stripe.com"]);
    expect(paymentSources("/subscription/unsafe/card-plus", "sandbox").script).toEqual([]);
    expect(paymentSources("/subscription", "stripe").frame).toEqual([]);
    expect(paymentSources("/subscription/unsafe/%2e%2e/%2e%2e/login", "stripe").script).toEqual([]);
  });
});

describe("needsDocumentLoad", () => {
  it.each([
    ["/subscription", "/subscription/unsafe/card-plus?checkout=abc", true],
    ["/setup/membership", "/subscription/unsafe/payment-intent?checkout=abc", true],
    ["/subscription/unsafe/card-plus", "/", true],
    ["/subscription/unsafe/payment-intent", "/signup?email=a%40example.org", true],
    ["/subscription/unsafe/card-plus", "/subscription/unsafe/authenticate?checkout=abc", false],
    ["/subscription/unsafe/authenticate", "/subscription/unsafe/payment-intent", false],
    ["/embed/subscription", "/subscription", true],
    ["/lrm", "/embed/nols", false],
    ["/profile", "/lrm/header", true],
    ["/notarize", "/api/nol/preview", true],
    ["/", "/profile/billing", false],
    ["/subscription", "/subscription?coupon=x", false],
    ["/subscription/unsafe/%2e%2e/%2e%2e/login", "/login", false],
    ["/login", "/profile/../subscription/unsafe/card-plus", true],
    ["/", "/embed/%E0%A4%A", true],
  ])("from %s to %s: %s", (from, to, expected) => {
    expect(needsDocumentLoad(from, to)).toBe(expected);
  });
});

describe("contentSecurityPolicy", () => {
  const site = {
    payments: "stripe",
    learningSiteUrl: "https://learn.example.org/courses",
    formsOrigins: [],
    production: false,
  } as const;
  const directive = (policy: string, name: string) =>
    policy
      .split(";")
      .map((part) => part.split(" "))
      .find(([first]) => first === name)
      ?.slice(1);

  it("names the request's nonce and lets in no other script but this site's", () => {
    const policy = contentSecurityPolicy("/profile", "abc123", site);
    expect(directive(policy, "script-src")).toEqual(["'strict-dynamic'", "'self'", "'nonce-abc123'"]);
    expect(directive(policy, "default-src")).toEqual(["'self'"]);
    expect(directive(policy, "object-src")).toEqual(["'none'"]);
    expect(directive(policy, "base-uri")).toEqual(["'none'"]);
    expect(directive(policy, "frame-ancestors")).toEqual(["'none'"]);
    expect(policy).not.toContain("upgrade-insecure-requests");
  });

  it("lets Stripe's script, frames and API in on the card pages only, and only with Stripe", () => {
    const card = contentSecurityPolicy("/subscription/unsafe/payment-intent", "n", site);
    expect(directive(card, "script-src")).toContain("https://js.stripe.com");
    expect(directive(card, "frame-src")).toEqual([
      "'self'",
      "blob:",
      "https://js.stripe.com",
      "https://hooks.stripe.com",
    ]);
    expect(directive(card, "connect-src")).toEqual(["'self'", "https://api.stripe.com"]);
    const sandbox = contentSecurityPolicy("/subscription/unsafe/payment-intent", "n", { ...site, payments: "sandbox" });
    expect(sandbox).not.toContain("stripe.com");
    expect(contentSecurityPolicy("/subscription", "n", site)).not.toContain("stripe.com");
  });

  it("lets the learning site frame the embed pages and this site frame its documents", () => {
    expect(directive(contentSecurityPolicy("/embed/nols", "n", site), "frame-ancestors")).toEqual([
      "https://learn.example.org",
    ]);
    expect(directive(contentSecurityPolicy("/api/nol/preview", "n", site), "frame-ancestors")).toEqual(["'self'"]);
    expect(
      directive(contentSecurityPolicy("/embed/nols", "n", { ...site, learningSiteUrl: undefined }), "frame-ancestors"),
    ).toEqual(["'none'"]);
  });

  it("adds the hosted forms' origin where they are the provider, and upgrades requests in production", () => {
    const policy = contentSecurityPolicy("/nol/creator", "n", {
      ...site,
      formsOrigins: ["https://www.cognitoforms.com"],
      production: true,
    });
    for (const name of ["style-src", "img-src", "font-src", "connect-src", "frame-src", "form-action"])
      expect(directive(policy, name), name).toContain("https://www.cognitoforms.com");
    expect(directive(policy, "script-src")).not.toContain("https://www.cognitoforms.com");
    expect(policy.endsWith(";upgrade-insecure-requests")).toBe(true);
  });
});
