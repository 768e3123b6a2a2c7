import { dictionary } from "@zxcvbn-ts/language-common";
import { eq, or, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { countries, payments, plans, subscriptions, users } from "~/db/schema";
import type { FieldErrors } from "~/domain/account";
import type { CardInput } from "~/domain/card";
import { nextSetupStep, type SetupStepId } from "~/domain/setup";
import { audit, type AuditActor } from "./audit.server";
import { hashPassword, verifyPassword } from "./password.server";
import { hitRateLimit, rateLimitCount } from "./rate-limit.server";
import { revokeUserSessions, startSession, type Viewer } from "./session.server";
import { consumeToken, issueToken } from "./tokens.server";

const COMMON_PASSWORDS = new Set(dictionary.passwords.slice(0, 3_000).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

const COMMON_PASSWORD_MESSAGE = "That password is one of the most common ones; choose another";

export const LOGIN_FAILED_MESSAGE = "That username or e-mail address and password do not match";
export const VERIFY_TTL_MS = 48 * 3_600_000;
export const RESET_TTL_MS = 3_600_000;

/** Per client address, for login, sign-up and reset (DESIGN.md §8): AUTH_RATE_LIMIT a minute. */
export const IP_LIMIT_WINDOW_SECONDS = 60;
/** Failed logins for one account from one address before that pair must wait. */
export const ACCOUNT_FAILURES = { hits: 5, windowSeconds: 900 };

export type ClientMeta = { ip: string; userAgent: string | null; devicePublicKey?: string | null };

export function actorOf(viewer: Viewer | null): AuditActor {
  return { actorUserId: viewer?.user.id ?? null, agentUserId: viewer?.agent?.id ?? null };
}

export async function ipLimit(services: AppServices, action: string, ip: string) {
  return hitRateLimit(services.db, `${action}:ip:${ip}`, services.config.authRateLimit, IP_LIMIT_WINDOW_SECONDS);
}

function isUniqueViolation(error: unknown): boolean {
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

export type SignUpResult = { ok: true; sessionId: string } | { ok: false; fieldErrors: FieldErrors };

export async function signUp(
  services: AppServices,
  input: { username: string; email: string; password: string },
  meta: ClientMeta,
): Promise<SignUpResult> {
  const { db } = services;
  if (isCommonPassword(input.password)) return { ok: false, fieldErrors: { password: [COMMON_PASSWORD_MESSAGE] } };
  const taken = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(sql`lower(${users.username}) = ${input.username}`, sql`lower(${users.email}) = ${input.email}`));
  const errors: FieldErrors = {};
  if (taken.some((u) => u.username.toLowerCase() === input.username)) errors.username = ["That username is taken"];
  if (taken.some((u) => u.email.toLowerCase() === input.email))
    errors.email = ["An account already uses that e-mail address; log in or reset your password"];
  if (Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };

  const passwordHash = await hashPassword(input.password);
  let user: typeof users.$inferSelect;
  try {
    [user] = (await db
      .insert(users)
      .values({ username: input.username, email: input.email, passwordHash, needsSetup: true, setupStep: "profile" })
      .returning()) as [typeof users.$inferSelect];
  } catch (error) {
    // Someone took the name or address between the check and the insert.
    if (isUniqueViolation(error))
      return { ok: false, fieldErrors: { username: ["That username or e-mail address is taken"] } };
    throw error;
  }
  await sendVerification(services, user);
  const session = await startSession(db, {
    userId: user.id,
    carrier: "cookie",
    devicePublicKey: meta.devicePublicKey,
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  await audit(db, { actorUserId: user.id, agentUserId: null }, "signup", "user", user.id);
  return { ok: true, sessionId: session.id };
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

export async function verifyEmail(services: AppServices, token: string): Promise<boolean> {
  const used = await consumeToken(services.db, "verify_email", token);
  if (!used) return false;
  await services.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, used.userId));
  await audit(services.db, { actorUserId: used.userId, agentUserId: null }, "verify-email", "user", used.userId);
  return true;
}

export type LogInResult =
  { ok: true; sessionId: string } | { ok: false; status: 400 | 429; message: string; retryAfterSeconds?: number };

export async function logIn(
  services: AppServices,
  input: { login: string; password: string },
  meta: ClientMeta,
): Promise<LogInResult> {
  const { db } = services;
  const login = input.login.toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${login}`, sql`lower(${users.email}) = ${login}`))
    .limit(1);

  // Failures count per name typed and client address: an attacker elsewhere slows only
  // themselves, and since a real name and a made-up one are counted alike, the answers
  // never tell whether an account exists or which username goes with which e-mail.
  const failureKey = `login-fail:${login.slice(0, 320)}:${meta.ip}`;
  if ((await rateLimitCount(db, failureKey, ACCOUNT_FAILURES.windowSeconds)) >= ACCOUNT_FAILURES.hits) {
    return {
      ok: false,
      status: 429,
      message: "Too many failed attempts for this sign-in from your network. Wait 15 minutes or reset your password.",
      retryAfterSeconds: ACCOUNT_FAILURES.windowSeconds,
    };
  }

  // A missing member costs the same time as a wrong password, so timing tells nothing.
  const valid =
    user?.passwordHash && !user.disabledAt
      ? await verifyPassword(input.password, user.passwordHash)
      : (await verifyPassword(input.password, DUMMY_HASH), false);
  if (!user || !valid) {
    await hitRateLimit(db, failureKey, ACCOUNT_FAILURES.hits, ACCOUNT_FAILURES.windowSeconds);
    return { ok: false, status: 400, message: LOGIN_FAILED_MESSAGE };
  }
  const session = await startSession(db, {
    userId: user.id,
    carrier: "cookie",
    devicePublicKey: meta.devicePublicKey,
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  await audit(db, { actorUserId: user.id, agentUserId: null }, "login", "session", null);
  return { ok: true, sessionId: session.id };
}

// A real scrypt hash of a random password, never matched.
const DUMMY_HASH = "scrypt$131072$8$1$3q2+7w==$Rr4m0wLZQy7xwT6wqgq1Jd6nEw3Zp0nN8C3vJdJtq+E=";

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

export type ResetResult = { ok: true } | { ok: false; fieldErrors: FieldErrors; expired?: boolean };

export async function resetPassword(services: AppServices, token: string, password: string): Promise<ResetResult> {
  if (isCommonPassword(password)) return { ok: false, fieldErrors: { password: [COMMON_PASSWORD_MESSAGE] } };
  const used = await consumeToken(services.db, "password_reset", token);
  if (!used) return { ok: false, expired: true, fieldErrors: {} };
  await services.db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, used.userId));
  await revokeUserSessions(services.db, used.userId);
  await audit(services.db, { actorUserId: used.userId, agentUserId: null }, "password-reset", "user", used.userId);
  return { ok: true };
}

export async function listCountries(db: Database) {
  return db.select().from(countries).orderBy(countries.name);
}

/** Moves the member to the step after `step`, or completes setup. */
async function advanceSetup(services: AppServices, viewer: Viewer, step: SetupStepId) {
  const next = nextSetupStep(step, { free: services.config.free });
  await services.db
    .update(users)
    .set(next ? { setupStep: next } : { setupStep: null, needsSetup: false })
    .where(eq(users.id, viewer.member.id));
  return next;
}

export async function saveProfileStep(
  services: AppServices,
  viewer: Viewer,
  input: { name: string; country: string },
): Promise<{ ok: true; next: SetupStepId | null } | { ok: false; fieldErrors: FieldErrors }> {
  const [country] = await services.db.select().from(countries).where(eq(countries.code, input.country));
  if (!country) return { ok: false, fieldErrors: { country: ["Choose your country from the list"] } };
  await services.db
    .update(users)
    .set({ name: input.name, countryCode: input.country })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "setup.profile", "user", viewer.member.id, { country: input.country });
  return { ok: true, next: await advanceSetup(services, viewer, "profile") };
}

export async function membershipPlans(db: Database) {
  return db.select().from(plans).where(eq(plans.active, true)).orderBy(plans.sort);
}

export const DONATION_MIN_CENTS = 100;
export const DONATION_MAX_CENTS = 1_000_000;

export async function saveMembershipStep(
  services: AppServices,
  viewer: Viewer,
  input: { planId: string; amountCents: number | null; card: CardInput },
): Promise<{ ok: true; next: SetupStepId | null } | { ok: false; fieldErrors: FieldErrors; formError?: string }> {
  const { db } = services;
  const [plan] = await db.select().from(plans).where(eq(plans.id, input.planId));
  if (!plan || !plan.active) return { ok: false, fieldErrors: { planId: ["Choose a membership"] } };
  const amountCents = plan.kind === "donation" ? input.amountCents : plan.amountCents;
  if (
    plan.kind === "donation" &&
    (amountCents === null || amountCents < DONATION_MIN_CENTS || amountCents > DONATION_MAX_CENTS)
  ) {
    return { ok: false, fieldErrors: { amount: ["Enter a donation from 1.00 to 10,000.00"] } };
  }
  const provider = services.providers.payments;
  const result = await provider.startMembership({
    userId: viewer.member.id,
    plan: {
      id: plan.id,
      kind: plan.kind,
      amountCents: plan.amountCents,
      currency: plan.currency,
      interval: plan.interval,
    },
    amountCents: amountCents ?? 0,
    card: input.card,
    now: new Date(),
  });
  if (!result.ok) return { ok: false, fieldErrors: {}, formError: result.message };
  if (plan.kind === "subscription") {
    await db.insert(subscriptions).values({
      userId: viewer.member.id,
      planId: plan.id,
      status: "ACTIVE",
      provider: provider.name,
      providerSubscriptionId: result.providerRef,
      currentPeriodEnd: result.periodEnd,
    });
  } else {
    await db.insert(payments).values({
      userId: viewer.member.id,
      planId: plan.id,
      kind: "donation",
      amountCents: amountCents!,
      currency: plan.currency,
      status: "succeeded",
      provider: provider.name,
      providerRef: result.providerRef,
    });
  }
  await audit(db, actorOf(viewer), "setup.membership", plan.kind, result.providerRef, { planId: plan.id, amountCents });
  return { ok: true, next: await advanceSetup(services, viewer, "membership") };
}

/** A lapsed member goes back through the membership step. */
export async function rejoin(services: AppServices, viewer: Viewer): Promise<void> {
  await services.db
    .update(users)
    .set({ needsSetup: true, setupStep: services.config.free ? "profile" : "membership" })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "rejoin", "user", viewer.member.id);
}
