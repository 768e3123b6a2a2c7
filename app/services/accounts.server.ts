import { and, eq, ne, or, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { users } from "~/db/schema";
import { communityFor } from "~/domain/community";
import { invalid, type FieldErrors } from "~/domain/errors";
import { z } from "zod";
import { claimPayments } from "./billing/checkout-outcome.server";
import { audit } from "./audit.server";
import { enqueue, type JobDefinition } from "./queue.server";
import { hashPassword } from "~/lib/password.server";
import { passwordWeakness, personalWords, refuseWeakPassword } from "./password.server";
import { enforceRateLimit, hitRateLimit } from "./rate-limit.server";
import { revokeUserSessions, startSession, type ClientMeta } from "./session.server";
import { consumeToken, issueToken, tokenOwner } from "./tokens.server";
import { isMailAddress } from "~/domain/mail-address";

// The sign-up page's action reads its form with these; from here, its browser code stays
// without the schema library (docs/decisions/026-light-sign-in-pages.md).
export { linkTokenOf, signupSchema } from "~/domain/account";

/** The sign-up page named in the path: the form (none), "check-email" or "verify"; null for anything else. */
export function signupPageOf(action: string | undefined): "check-email" | "verify" | undefined | null {
  const parsed = z.enum(["check-email", "verify"]).optional().safeParse(action);
  return parsed.success ? parsed.data : null;
}

/** The e-mail of a payment made before signing up, from the sign-up link's query; null unless it is one. */
export function paidEmailOf(given: string | null): string | null {
  const parsed = z.string().max(254).refine(isMailAddress).safeParse(given);
  return parsed.success ? parsed.data : null;
}

/** An account's life: sign-up, the e-mail confirmation, the password reset. Login is in auth.server.ts. */

export const VERIFY_TTL_MS = 48 * 3_600_000;
export const RESET_TTL_MS = 3_600_000;

/** Per client address, for login, sign-up and reset (DESIGN.md §8): AUTH_RATE_LIMIT a minute. */
export const IP_LIMIT_WINDOW_SECONDS = 60;

/** What an address past its limit is told, per action. */
const IP_LIMIT_MESSAGES = {
  login: "Too many login attempts from your network. Wait a minute and try again.",
  signup: "Too many sign-ups from your network. Wait a minute and try again.",
  reset: "Too many requests from your network. Wait a minute and try again.",
};

/** Counts one login, sign-up or reset request from the address; past the limit, a 429. */
export async function ipLimit(services: AppServices, action: keyof typeof IP_LIMIT_MESSAGES, ip: string) {
  const { db, config } = services;
  await enforceRateLimit(
    db,
    `${action}:ip:${ip}`,
    config.authRateLimit,
    IP_LIMIT_WINDOW_SECONDS,
    IP_LIMIT_MESSAGES[action],
  );
}

export const communityName = (services: AppServices) => communityFor(services.config.community).name;

/** A write refused by a unique index (PostgreSQL's 23505), however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

async function sendVerification(services: AppServices, user: { id: string; email: string; username: string }) {
  const token = await issueToken(services.db, "verify_email", user.id, VERIFY_TTL_MS);
  const link = `${services.config.baseUrl}/signup/verify?token=${token}`;
  await services.providers.mail.send({
    to: user.email,
    template: "verify-email",
    subject: "Confirm your e-mail address",
    text: `Hello ${user.username},\n\nConfirm your e-mail address by opening this link within 48 hours:\n\n${link}\n\nIf you did not sign up, ignore this message.`,
  });
}

/**
 * Why a sign-up's password will not do (the common-password list and the guessing score,
 * with the member's own words), or null. Sign-up asks it even when other fields are wrong,
 * so every field's message comes at once.
 */
export function signupPasswordWeakness(
  services: AppServices,
  input: { username?: string; email?: string; password: string },
): string | null {
  return passwordWeakness(
    input.password,
    personalWords({ username: input.username, email: input.email, community: communityName(services) }),
  );
}

/** Creates a member who still needs setup, mails the confirmation link and signs them in. */
export async function signUp(
  services: AppServices,
  input: { username: string; email: string; password: string },
  client: ClientMeta,
): Promise<{ sessionId: string }> {
  const { db } = services;
  const taken = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(sql`lower(${users.username}) = ${input.username}`, sql`lower(${users.email}) = ${input.email}`));
  // Every field is checked at once: a weak password and a taken name are told together.
  const errors: FieldErrors = {};
  const weakness = signupPasswordWeakness(services, input);
  if (weakness) errors.password = [weakness];
  if (taken.some((u) => u.username.toLowerCase() === input.username)) errors.username = ["That username is taken"];
  if (taken.some((u) => u.email.toLowerCase() === input.email))
    errors.email = ["An account already uses that e-mail address; log in or reset your password"];
  if (Object.keys(errors).length > 0) {
    throw invalid(weakness && Object.keys(errors).length === 1 ? weakness : "Check the fields marked below", errors);
  }

  const passwordHash = await hashPassword(input.password);
  let user: typeof users.$inferSelect;
  try {
    [user] = (await db
      .insert(users)
      .values({ username: input.username, email: input.email, passwordHash, needsSetup: true, setupStep: "profile" })
      .returning()) as [typeof users.$inferSelect];
  } catch (error) {
    // Someone took the name or address between the check and the insert.
    if (isUniqueViolation(error)) {
      const message = "That username or e-mail address is taken";
      throw invalid(message, { username: [message] });
    }
    throw error;
  }
  await sendVerification(services, user);
  const session = await startSession(db, { userId: user.id, carrier: "cookie", ...client });
  await audit(db, { actorUserId: user.id, agentUserId: null, ip: client.ip }, "signup", "user", user.id);
  return { sessionId: session.id };
}

/** Sends a new confirmation link, at most five an hour per member. */
export async function resendVerification(services: AppServices, userId: string): Promise<boolean> {
  const [user] = await services.db.select().from(users).where(eq(users.id, userId));
  if (!user || user.emailVerifiedAt) return false;
  const limit = await hitRateLimit(services.db, `verify-resend:${userId}`, 5, 3_600);
  if (!limit.ok) return false;
  await sendVerification(services, user);
  return true;
}

/** Opens a confirmation link; `ip` is the address it was opened from, for the audit log. */
export async function verifyEmail(services: AppServices, token: string, ip: string | null = null): Promise<boolean> {
  const used = await consumeToken(services.db, "verify_email", token);
  if (!used) return false;
  // An e-mail change's link carries the new address: opening it proves the address and makes it the member's.
  const newEmail = used.data?.newEmail;
  if (newEmail) {
    const taken = await services.db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${newEmail}`, ne(users.id, used.userId)))
      .limit(1);
    if (taken.length > 0) return false;
  }
  const [member] = await services.db
    .update(users)
    .set({ emailVerifiedAt: new Date(), ...(newEmail ? { email: newEmail } : {}) })
    .where(eq(users.id, used.userId))
    .returning({ email: users.email });
  if (newEmail) {
    await audit(services.db, { actorUserId: used.userId, agentUserId: null, ip }, "change-email", "user", used.userId);
  }
  // Payments made with this address before signing up are the member's, now it is proven theirs.
  if (member) await claimPayments(services, used.userId, member.email);
  await audit(services.db, { actorUserId: used.userId, agentUserId: null, ip }, "verify-email", "user", used.userId);
  return true;
}

export async function requestPasswordReset(services: AppServices, email: string): Promise<void> {
  const [user] = await services.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (!user || user.disabledAt) return;
  const token = await issueToken(services.db, "password_reset", user.id, RESET_TTL_MS);
  await services.providers.mail.send({
    to: user.email,
    template: "password-reset",
    subject: "Reset your password",
    text: `Hello ${user.username},\n\nSet a new password by opening this link within one hour. It works once.\n\n${services.config.baseUrl}/login/reset?token=${token}\n\nIf you did not ask for this, ignore this message: your password stays as it is.`,
  });
}

/**
 * The reset mail as background work: /login/help queues it for every address, known or not,
 * so its answer takes as long either way and does not tell which addresses have an account.
 */
export const passwordResetJob = {
  name: "password-reset-mail",
  data: z.object({ email: z.string().max(320) }),
  retry: { limit: 2, delaySeconds: 30 },
  async run(services, data) {
    await requestPasswordReset(services, data.email);
  },
} satisfies JobDefinition<{ email: string }>;

/** /login/help: the reset mail for this address, if it has an account, goes out in the background. */
export async function queuePasswordReset(services: AppServices, email: string): Promise<void> {
  await enqueue(services, passwordResetJob, { email });
}

export const RESET_LINK_EXPIRED_MESSAGE = "This link has expired or was already used. Ask for a new one.";

/** The e-mailed links that let a member choose a password: a reset, or an import's invitation. */
export type PasswordLink = "password_reset" | "invitation";

/**
 * Sets the new password of the link's member and ends all their sessions; `ip` is where the link
 * was used. An invitation's link also shows the e-mail address is theirs.
 */
export async function resetPassword(
  services: AppServices,
  token: string,
  password: string,
  ip: string | null = null,
  purpose: PasswordLink = "password_reset",
): Promise<void> {
  // The link is only looked at here: a password refused for its strength leaves it usable.
  const owner = await tokenOwner(services.db, purpose, token);
  if (!owner) throw invalid(RESET_LINK_EXPIRED_MESSAGE);
  const [member] = await services.db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(eq(users.id, owner.userId));
  refuseWeakPassword(password, personalWords({ ...member, community: communityName(services) }));
  const used = await consumeToken(services.db, purpose, token);
  if (!used) throw invalid(RESET_LINK_EXPIRED_MESSAGE);
  await services.db
    .update(users)
    .set({
      passwordHash: await hashPassword(password),
      ...(purpose === "invitation" ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` } : {}),
    })
    .where(eq(users.id, used.userId));
  await revokeUserSessions(services.db, used.userId);
  const action = purpose === "invitation" ? "password-set-from-invitation" : "password-reset";
  await audit(services.db, { actorUserId: used.userId, agentUserId: null, ip }, action, "user", used.userId);
}
