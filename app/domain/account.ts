import { z } from "zod";

/** The rules for what a member types at sign-up, login, reset and setup. */

/** A text a member must fill in: trimmed, and `message` when it is empty. */
export function requiredText(message: string, max: number, tooLong?: string) {
  return z.string({ required_error: message }).trim().min(1, message).max(max, tooLong);
}

import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_RULE } from "./account-text";
import { isMailAddress, normalMailAddress } from "./mail-address";

export { PASSWORD_MAX, PASSWORD_MIN, USERNAME_RULE };

export const usernameSchema = z
  .string({ required_error: "Choose a username" })
  .trim()
  .toLowerCase()
  .min(3, `Username: ${USERNAME_RULE}`)
  .max(32, `Username: ${USERNAME_RULE}`)
  .regex(/^[a-z0-9_-]+$/, `Username: ${USERNAME_RULE}`);

export const emailSchema = requiredText("Enter your e-mail address", 254, "That e-mail address is too long")
  .refine(isMailAddress, "Enter a valid e-mail address")
  .transform(normalMailAddress);

/** Length rules only; the common-password check needs the server's list. */
export const passwordSchema = z
  .string({ required_error: "Choose a password" })
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters`);

/** A honeypot field: people leave it empty, form-filling robots do not. */
export const honeypotSchema = z.string().max(0).optional();

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("1")])
  .optional()
  .transform((v) => v !== undefined);

export const signupSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  acceptTerms: checkbox.refine((v) => v, "Accept the Terms of Service and Privacy Policy to continue"),
  website: honeypotSchema,
});

export const loginSchema = z.object({
  login: requiredText("Enter your username or e-mail address", 254, "Enter your username or e-mail address"),
  password: z
    .string({ required_error: "Enter your password" })
    .min(1, "Enter your password")
    .max(PASSWORD_MAX * 4),
  redirectTo: z.string().max(2_000).optional(),
  website: honeypotSchema,
});

/** The token of an e-mailed link (confirmation, password reset, newsletter). */
export const linkTokenSchema = z.string().min(20).max(200);

/** The token a link's address carries, or null when it carries none that could be one. */
export function linkTokenOf(value: string | null): string | null {
  const parsed = linkTokenSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const resetRequestSchema = z.object({ email: emailSchema, website: honeypotSchema });

export const resetPasswordSchema = z
  .object({
    token: linkTokenSchema,
    password: passwordSchema,
    confirm: z.string().optional(),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords differ" });

/** Subscription statuses that count as a membership in good standing. */
export const ACTIVE_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(["ACTIVE", "TRIALING", "COMPLIMENTARY"]);

export type RejoinStanding = "in-setup" | "active" | "lapsed" | "no-subscription";

/**
 * Where a member stands for /re-join: only a member whose setup is done and whose
 * subscription has lapsed goes back through the membership step. A member still in setup
 * finishes it first; one with an active subscription, or who joined by donation, has
 * nothing to re-join.
 */
export function rejoinStanding(member: { needsSetup: boolean; subscriptionStatus: string | null }): RejoinStanding {
  if (member.needsSetup) return "in-setup";
  if (member.subscriptionStatus === null) return "no-subscription";
  return ACTIVE_SUBSCRIPTION_STATUSES.has(member.subscriptionStatus) ? "active" : "lapsed";
}
