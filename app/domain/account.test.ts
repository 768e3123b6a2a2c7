import { describe, expect, it } from "vitest";
import { loginSchema, rejoinStanding, resetPasswordSchema, signupSchema, usernameSchema } from "./account";

const valid = { username: "new_member-1", email: "New@Example.org", password: "a long passphrase", acceptTerms: "on" };

describe("sign-up rules", () => {
  it("accepts a username of 3 to 32 of a-z 0-9 _ - and lower-cases the e-mail", () => {
    expect(signupSchema.parse(valid)).toMatchObject({
      username: "new_member-1",
      email: "new@example.org",
      acceptTerms: true,
    });
  });

  it.each(["ab", "a".repeat(33), "has space", "dot.name", "ümlaut"])("refuses the username %j", (username) => {
    expect(usernameSchema.safeParse(username).success).toBe(false);
  });

  it("reports each bad field by name", () => {
    const result = signupSchema.safeParse({ username: "x", email: "nope", password: "short" });
    expect(result.success).toBe(false);
    const errors = result.error!.flatten().fieldErrors;
    expect(Object.keys(errors).sort()).toEqual(["acceptTerms", "email", "password", "username"]);
    expect(errors.acceptTerms).toEqual(["Accept the Terms of Service and Privacy Policy to continue"]);
  });

  it("refuses a password over 128 characters", () => {
    expect(signupSchema.safeParse({ ...valid, password: "x".repeat(129) }).success).toBe(false);
  });

  it("refuses a filled honeypot", () => {
    expect(signupSchema.safeParse({ ...valid, website: "http://spam" }).success).toBe(false);
  });
});

describe("login and reset rules", () => {
  it("needs both a login and a password", () => {
    expect(loginSchema.safeParse({ login: "", password: "" }).success).toBe(false);
    expect(loginSchema.parse({ login: " member ", password: "x" }).login).toBe("member");
  });

  it("needs the confirmation to match the new password", () => {
    const result = resetPasswordSchema.safeParse({
      token: "t".repeat(40),
      password: "a long passphrase",
      confirm: "other",
    });
    expect(result.success).toBe(false);
    expect(result.error!.flatten().fieldErrors.confirm).toEqual(["The two passwords differ"]);
  });
});

describe("re-join standing", () => {
  it.each([
    [{ needsSetup: true, subscriptionStatus: "CANCELED" }, "in-setup"],
    [{ needsSetup: false, subscriptionStatus: null }, "no-subscription"],
    [{ needsSetup: false, subscriptionStatus: "ACTIVE" }, "active"],
    [{ needsSetup: false, subscriptionStatus: "TRIALING" }, "active"],
    [{ needsSetup: false, subscriptionStatus: "CANCELED" }, "lapsed"],
    [{ needsSetup: false, subscriptionStatus: "PAST_DUE" }, "lapsed"],
  ] as const)("%o is %s", (member, standing) => {
    expect(rejoinStanding(member)).toBe(standing);
  });
});
