import { or, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import { users } from "~/db/schema";
import { loginSchema } from "~/domain/account";
import { invalid, isDomainError, tooMany, type DomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { readForm, submissionOf } from "~/lib/submission.server";
import { ipLimit } from "./accounts.server";
import { audit, actorOf } from "./audit.server";
import { verifyPassword } from "~/lib/password.server";
import { hitRateLimit, rateLimitCount } from "./rate-limit.server";
import { afterPassword, rememberToken, type PendingLogin } from "./factors/sign-in.server";
import { undoDeletion } from "./member-data/deletion.server";
import { clientMeta, revokeSession, siteCookies, startSession, type ClientMeta, type Viewer } from "./session.server";

export const LOGIN_FAILED_MESSAGE = "That username or e-mail address and password do not match";

/** Failed logins for one account from one address before that pair must wait. */
export const ACCOUNT_FAILURES = { hits: 5, windowSeconds: 900 };

// A real scrypt hash of a random password, never matched.
const DUMMY_HASH = "scrypt$131072$8$1$3q2+7w==$Rr4m0wLZQy7xwT6wqgq1Jd6nEw3Zp0nN8C3vJdJtq+E=";

/**
 * Checks a name and password and opens a cookie session (the login of spec §2.3), or, for a
 * member with a second factor on a device not remembered, answers that the factor is next.
 */
export async function logIn(
  services: AppServices,
  input: { login: string; password: string },
  client: ClientMeta,
  deviceToken: string | null = null,
): Promise<{ kind: "session"; sessionId: string } | { kind: "factor" | "undo-deletion"; userId: string }> {
  const { db } = services;
  const login = input.login.toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${login}`, sql`lower(${users.email}) = ${login}`))
    .limit(1);

  // Failures count per account and client address (decision 004): guesses by username and by
  // e-mail add up, and an attacker elsewhere slows only themselves. A name that matches no
  // account is counted by itself, with the same queries and limit, so a made-up name answers
  // exactly as a real one: that never tells whether an account exists. (Once one name of an
  // account is held back from an address, its other name is too: that pairing is the price
  // of counting per account, and learning it costs the failures themselves.)
  const failureKey = user
    ? `login-fail:account:${user.id}:${client.ip}`
    : `login-fail:name:${login.slice(0, 320)}:${client.ip}`;
  if ((await rateLimitCount(db, failureKey, ACCOUNT_FAILURES.windowSeconds)) >= ACCOUNT_FAILURES.hits) {
    throw tooMany(
      "Too many failed attempts for this sign-in from your network. Wait 15 minutes or reset your password.",
      ACCOUNT_FAILURES.windowSeconds,
    );
  }

  // A missing member costs the same time as a wrong password, so timing tells nothing.
  // An account past its grace period waits only for the erasure job: it logs in no more.
  const erasing = user?.deletionDueAt ? user.deletionDueAt <= new Date() : false;
  const valid =
    user?.passwordHash && !user.disabledAt && !erasing
      ? await verifyPassword(input.password, user.passwordHash)
      : (await verifyPassword(input.password, DUMMY_HASH), false);
  if (!user || !valid) {
    await hitRateLimit(db, failureKey, ACCOUNT_FAILURES.hits, ACCOUNT_FAILURES.windowSeconds);
    throw invalid(LOGIN_FAILED_MESSAGE);
  }
  // A deleted account in its grace period: the password is the member's, and they may undo.
  if (user.deletionDueAt) {
    await audit(db, { actorUserId: user.id, agentUserId: null, ip: client.ip }, "login.password", "session", null);
    return { kind: "undo-deletion", userId: user.id };
  }
  const next = await afterPassword(db, user.id, deviceToken);
  if (next.kind === "factor") {
    await audit(db, { actorUserId: user.id, agentUserId: null, ip: client.ip }, "login.password", "session", null);
    return { kind: "factor", userId: user.id };
  }
  const session = await startSession(db, {
    userId: user.id,
    carrier: "cookie",
    factorPassedAt: next.factorPassedAt,
    ...client,
  });
  await audit(db, { actorUserId: user.id, agentUserId: null, ip: client.ip }, "login", "session", null);
  return { kind: "session", sessionId: session.id };
}

/**
 * The member chose to keep their deleted account at login: the deletion undone, the login goes
 * on as any other (the second factor next where they have one).
 */
export async function keepAccountAndLogIn(
  services: AppServices,
  userId: string,
  client: ClientMeta,
  deviceToken: string | null,
): Promise<{ kind: "session"; sessionId: string } | { kind: "factor" } | { kind: "too-late" }> {
  const { db } = services;
  if (!(await undoDeletion(services, userId, client.ip))) return { kind: "too-late" };
  const next = await afterPassword(db, userId, deviceToken);
  if (next.kind === "factor") return next;
  const session = await startSession(db, { userId, carrier: "cookie", factorPassedAt: next.factorPassedAt, ...client });
  await audit(db, { actorUserId: userId, agentUserId: null, ip: client.ip }, "login", "session", null);
  return { kind: "session", sessionId: session.id };
}

type LoginForm = ReturnType<typeof submissionOf<typeof loginSchema>>;

/**
 * A refused login, with the form as typed so the page can show it again: the form's own field
 * errors, or the reason (rate limit, wrong name or password).
 */
export class LoginRefused extends Error {
  constructor(
    readonly submission: LoginForm,
    readonly reason?: DomainError,
  ) {
    super(reason?.message ?? "The login form has errors");
    this.name = "LoginRefused";
  }
}

/**
 * remix-auth's form strategy, reading the body as every form of the house does: a body that
 * is no form (JSON, a broken multipart) reads as an empty form, refused by validation with a
 * 400, where remix-auth-form's `FormStrategy` would throw while parsing it.
 */
class FormStrategy<User> extends Strategy<User, { form: FormData; request: Request }> {
  override name = "form";

  override async authenticate(request: Request): Promise<User> {
    return this.verify({ form: await readForm(request), request });
  }
}

/**
 * Logs a member in from the login form through remix-auth: the address's rate limit first,
 * then the form, then the name and password. Answers the new session and where to go back to;
 * throws LoginRefused otherwise.
 */
export async function authenticateLogin(services: AppServices, request: Request, clientIp: string) {
  try {
    await ipLimit(services, "login", clientIp);
  } catch (error) {
    // Refused before the body is read: the refusal carries no values, as none were read.
    if (isDomainError(error)) throw new LoginRefused(submissionOf(new FormData(), loginSchema), error);
    throw error;
  }
  type Authenticated =
    | { kind: "session"; sessionId: string; redirectTo: string }
    | { kind: "factor" | "undo-deletion"; pending: Omit<PendingLogin, "until" | "token"> };
  const authenticator = new Authenticator<Authenticated>().use(
    new FormStrategy(async ({ form }) => {
      const submission = submissionOf(form, loginSchema);
      try {
        if (submission.status !== "success") throw new LoginRefused(submission);
        const client = clientMeta(request, clientIp, form.get("devicePublicKey"));
        const deviceToken = await rememberToken(request, services.config);
        const result = await logIn(services, submission.value, client, deviceToken);
        const redirectTo = safeRedirectPath(submission.value.redirectTo, "");
        if (result.kind !== "session") {
          const pending = { userId: result.userId, redirectTo, devicePublicKey: client.devicePublicKey ?? null };
          return { kind: result.kind, pending };
        }
        return { kind: "session", sessionId: result.sessionId, redirectTo };
      } catch (error) {
        if (isDomainError(error)) throw new LoginRefused(submission, error);
        throw error;
      }
    }),
  );
  return authenticator.authenticate("form", request);
}

/**
 * The answer to a successful login or sign-up: the session cookie, and the path to come back
 * to when there is one (spec §2.3).
 */
export async function sessionCookies(config: AppConfig, sessionId: string, rememberedTarget?: string) {
  const cookies = siteCookies(config);
  const headers = new Headers();
  headers.append("Set-Cookie", await cookies.session.serialize(sessionId));
  if (rememberedTarget) headers.append("Set-Cookie", await cookies.afterLogin.serialize(rememberedTarget));
  return headers;
}

/** Ends the viewer's session, audited. */
export async function logOut(services: AppServices, viewer: Viewer): Promise<void> {
  await revokeSession(services.db, viewer.session.id);
  await audit(services.db, actorOf(viewer), "logout", "session", null);
}
