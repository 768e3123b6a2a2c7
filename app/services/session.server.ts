import { randomBytes } from "node:crypto";
import { redirect, type AppLoadContext } from "@remix-run/node";
import { and, eq, isNull } from "drizzle-orm";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { DomainError, forbidden, unauthorized } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { factorGate } from "~/domain/second-factor";
import type { SessionState, SessionStateCore } from "~/domain/session-state";
import { errorJson, errorPage, pageRedirect } from "~/lib/http.server";
import { appServices } from "./app.server";
import { requireFactorGate } from "./factors/step-up.server";
import { SESSION_DAYS, siteCookies } from "./site-cookies.server";
import { loadViewer, type SessionRow, type Viewer } from "./viewer.server";
import { checkStateHeaders, devicePublicKeySchema, encodeState } from "./state-header.server";

export { SESSION_DAYS, siteCookies };
export {
  latestSubscription,
  loadViewer,
  PAST_DUE_GRACE_DAYS,
  recheckSession,
  SESSION_IDLE_DAYS,
  type UserRow,
  type Viewer,
} from "./viewer.server";

export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/** Who opens a session: the client's address and browser, and the device key of the state-header carrier. */
export type ClientMeta = { ip: string; userAgent: string | null; devicePublicKey?: string | null };

/** The client of a request; a device key that is no secp256k1 public key counts as none. */
export function clientMeta(request: Request, clientIp: string, devicePublicKey?: unknown): ClientMeta {
  const device = devicePublicKeySchema.safeParse(devicePublicKey);
  return {
    ip: clientIp,
    userAgent: request.headers.get("user-agent"),
    devicePublicKey: device.success ? device.data.toLowerCase() : null,
  };
}

export async function startSession(
  db: Database,
  input: { userId: string; carrier: "cookie" | "state"; factorPassedAt?: Date | null } & Partial<ClientMeta>,
): Promise<SessionRow> {
  const [row] = await db
    .insert(sessions)
    .values({
      id: newSessionId(),
      userId: input.userId,
      carrier: input.carrier,
      devicePublicKey: input.devicePublicKey ?? null,
      expiresAt: new Date(Date.now() + SESSION_DAYS * 86_400_000),
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      factorPassedAt: input.factorPassedAt ?? null,
    })
    .returning();
  return row!;
}

export async function revokeSession(db: Database, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}

export async function revokeUserSessions(db: Database, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export class StateHeaderError extends Error {}

/** The session's viewer, through the server's cache of recent viewers. */
const cachedViewer = ({ viewers, db, config }: AppServices, id: string) =>
  viewers.read(id, () => loadViewer(db, id, { idleDays: config.sessionIdleDays, graceDays: config.pastDueGraceDays }));

// The root loader and the page's loader read the same document request, each through a copy
// of its Request the router makes: the viewer is kept against the object the server made for
// that request alone, which both see in their load context. Only for a read: after a form's
// action (a POST without JavaScript) the loaders that follow it in the same request read the
// viewer again, as the action may have changed it.
const viewerCache = new WeakMap<object, Promise<Viewer | null>>();

export function getViewer(request: Request, services: AppServices, context?: AppLoadContext): Promise<Viewer | null> {
  const read = request.method === "GET" || request.method === "HEAD";
  const key = read && context?.thisRequest ? context.thisRequest : request;
  let cached = viewerCache.get(key);
  if (!cached) {
    cached = readViewer(request, services).then((viewer) => viewer && withFactorGate(viewer, services.config));
    viewerCache.set(key, cached);
  }
  return cached;
}

/**
 * An admin is an admin only with the second factor the policy requires: set up, and passed by
 * this session (decision 045). Until then every page, action and API call sees a member, and
 * `adminLocked` says what is missing, so admin pages can send them to set it up or pass it.
 */
function withFactorGate(viewer: Viewer, config: AppConfig): Viewer {
  if (!viewer.user.admin) return viewer;
  const gate = factorGate(config.mfaRequiredFor, {
    isAdmin: true,
    hasFactor: viewer.hasFactor,
    factorPassed: viewer.session.factorPassedAt !== null,
  });
  if (gate === "ok") return viewer;
  const user = { ...viewer.user, admin: false };
  return { ...viewer, user, member: user, agent: null, adminLocked: gate };
}

/**
 * Who is asking: the session named by valid state headers, else by the session cookie.
 * State headers that are present but wrong in any way are refused, never ignored.
 */
async function readViewer(request: Request, services: AppServices): Promise<Viewer | null> {
  const check = checkStateHeaders(request, services.config);
  if (check.kind === "invalid") throw new StateHeaderError(check.reason);
  if (check.kind === "valid") {
    const viewer = await cachedViewer(services, check.sessionId);
    if (!viewer) throw new StateHeaderError("the session has ended");
    if (viewer.session.devicePublicKey !== check.devicePublicKey || viewer.user.username !== check.username) {
      throw new StateHeaderError("the state does not belong to this session");
    }
    return viewer;
  }
  const raw = await siteCookies(services.config).session.parse(request.headers.get("cookie"));
  if (typeof raw !== "string" || raw.length === 0) return null;
  return cachedViewer(services, raw);
}

/**
 * The state a client holds of the session. A viewer read past getViewer (a recheck, the
 * learning site's hand-off) is held back here too: an admin without the factor the policy
 * requires is no admin in the state, as on every page.
 */
export function sessionStateCore(viewer: Viewer, config: AppConfig): SessionStateCore {
  const { user, agent, member, subscription, session } = withFactorGate(viewer, config);
  return {
    username: user.username,
    email: user.email,
    verified_email: user.emailVerifiedAt !== null,
    admin: user.admin,
    agent: agent?.username ?? null,
    user_id: user.id,
    needsSetup: member.needsSetup,
    sub_id: subscription ? (subscription.providerSubscriptionId ?? subscription.id) : null,
    sub_status: subscription?.status ?? null,
    expiration: subscription?.currentPeriodEnd?.toISOString() ?? null,
    login_recheck: config.loginRecheckSeconds,
    login_at_checked: session.loginCheckedAt.toISOString(),
    sub_recheck: config.subRecheckSeconds,
    sub_checked: session.subCheckedAt?.toISOString() ?? null,
    nolCreator: member.nolCreator,
    nolTester: member.nolTester,
    country: member.countryCode,
    sid: session.id,
    dpk: session.devicePublicKey,
  };
}

export function sessionState(viewer: Viewer, config: AppConfig): SessionState {
  const core = sessionStateCore(viewer, config);
  const { state, hash } = encodeState(core, config.stateSecret);
  return { ...core, stateString: state, stateHash: hash };
}

/** The viewer, or null; state headers that are present but wrong answer 401 (one JSON shape everywhere). */
async function viewerOrNull(request: Request, services: AppServices, context: AppLoadContext): Promise<Viewer | null> {
  try {
    return await getViewer(request, services, context);
  } catch (error) {
    if (error instanceof StateHeaderError) throw errorJson(unauthorized(error.message));
    throw error;
  }
}

/** The viewer of a page that anyone may see, when someone is signed in; never refuses. */
export async function optionalViewer(
  request: Request,
  context: AppLoadContext,
): Promise<{ viewer: Viewer | null; services: AppServices }> {
  const services = await appServices(context);
  const viewer = await getViewer(request, services, context).catch(() => null);
  return { viewer: viewer && fromClient(viewer, context), services };
}

/** The viewer of this request, with the address it came from: the cached viewer is shared by the request's loaders. */
function fromClient(viewer: Viewer, context: AppLoadContext): Viewer {
  return { ...viewer, clientIp: context.clientIp };
}

/** The viewer of a request, or the answer `refuse` makes for a visitor. */
async function signedIn(
  request: Request,
  context: AppLoadContext,
  refuse: (config: AppConfig) => Response | Promise<Response>,
): Promise<{ viewer: Viewer; services: AppServices }> {
  const services = await appServices(context);
  const viewer = await viewerOrNull(request, services, context);
  if (!viewer) throw await refuse(services.config);
  return { viewer: fromClient(viewer, context), services };
}

/** The viewer of a page request, or a redirect to /login that remembers where they were going. */
export function requireViewer(request: Request, context: AppLoadContext) {
  return signedIn(request, context, (config) => loginRedirect(request, config));
}

/** Like requireViewer, and the member must have finished setup. */
export async function requireMember(request: Request, context: AppLoadContext) {
  const result = await requireViewer(request, context);
  if (result.viewer.member.needsSetup) throw redirect("/setup");
  return result;
}

/**
 * Like requireMember, and the person signed in must be an admin, with the second factor the
 * policy requires (set up, and passed by this session).
 */
export async function requireAdmin(request: Request, context: AppLoadContext) {
  const result = await requireMember(request, context);
  await requireFactorGate(result.services, request, result.viewer, "page");
  if (!result.viewer.user.admin) throw errorPage(forbidden());
  return result;
}

export async function loginRedirect(request: Request, config: AppConfig): Promise<Response> {
  const url = new URL(request.url);
  const target = safeRedirectPath(url.pathname + url.search);
  return pageRedirect(request, `/login?redirectTo=${encodeURIComponent(target)}`, {
    headers: { "Set-Cookie": await siteCookies(config).afterLogin.serialize(target) },
  });
}

/** The viewer of an API request, or a 401 JSON answer. */
export function requireApiViewer(request: Request, context: AppLoadContext) {
  return signedIn(request, context, () => errorJson(unauthorized("Sign in first")));
}

/** Like requireApiViewer, and the member must have finished setup (spec §2.3): else 403. */
export async function requireApiMember(request: Request, context: AppLoadContext) {
  const result = await requireApiViewer(request, context);
  if (result.viewer.member.needsSetup) {
    throw errorJson(new DomainError("forbidden", "Finish your setup first.", { extra: { needsSetup: true } }));
  }
  return result;
}

/** Like requireApiMember, and the person signed in must be an admin: else 403, as requireAdmin's pages. */
export async function requireApiAdmin(request: Request, context: AppLoadContext) {
  const result = await requireApiMember(request, context);
  await requireFactorGate(result.services, request, result.viewer, "api");
  if (!result.viewer.user.admin) throw errorJson(forbidden());
  return result;
}

/** API answers carry new state headers whenever the state differs from the request's: the client holds the current one. */
export function withState(response: Response, request: Request, viewer: Viewer, config: AppConfig): Response {
  const { stateString, stateHash } = sessionState(viewer, config);
  if (request.headers.get("state") !== stateString) {
    response.headers.set("state", stateString);
    response.headers.set("state-hash", stateHash);
  }
  return response;
}
