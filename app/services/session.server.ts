import { randomBytes } from "node:crypto";
import { redirect, type AppLoadContext } from "@remix-run/node";
import { and, desc, eq, getTableColumns, gt, isNull, lt, sql, type SQLWrapper } from "drizzle-orm";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { plans, sessions, subscriptions, users } from "~/db/schema";
import { grantedFeatures } from "~/domain/billing";
import { DomainError, forbidden, unauthorized } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import type { SessionState, SessionStateCore } from "~/domain/session-state";
import { errorJson, errorPage, pageRedirect } from "~/lib/http.server";
import { appServices } from "./app.server";
import { SESSION_DAYS, siteCookies } from "./site-cookies.server";
import { checkStateHeaders, devicePublicKeySchema, encodeState } from "./state-header.server";

export { SESSION_DAYS, siteCookies };
/** The idle timeout when the configuration names none (SESSION_IDLE_DAYS's default). */
export const SESSION_IDLE_DAYS = 7;
/** A session's last_seen_at moves at most this often, so a busy session is not a write per request. */
const SEEN_EVERY_MS = 60_000;

export type UserRow = typeof users.$inferSelect;
type SessionRow = typeof sessions.$inferSelect;
/** The member's latest subscription, with what its plan grants while it is in force. */
type SubscriptionRow = typeof subscriptions.$inferSelect & {
  features: string[];
  planTitle: string;
  planInterval: "month" | "year" | null;
};

/** Days a PAST_DUE subscription keeps its plan's features when the configuration names none. */
export const PAST_DUE_GRACE_DAYS = 7;

export type Viewer = {
  session: SessionRow;
  /** The person signed in. */
  user: UserRow;
  /** The member an admin is acting for (agent mode), or null. */
  agent: UserRow | null;
  /** Whose account the pages show: the represented member in agent mode, else the user. */
  member: UserRow;
  subscription: SubscriptionRow | null;
  /** The address this request came from, as the proxy settings read it (absent outside a request). */
  clientIp?: string;
};

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
  input: { userId: string; carrier: "cookie" | "state" } & Partial<ClientMeta>,
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

/** The newest subscription of the user a row names (`userId`), with its plan's features and title. */
function latestSubscriptionOf(db: Database, userId: SQLWrapper) {
  return db
    .select({
      ...getTableColumns(subscriptions),
      features: plans.features,
      planTitle: plans.title,
      planInterval: plans.interval,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
}

export async function latestSubscription(db: Database, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await latestSubscriptionOf(db, sql`${userId}`);
  return row ?? null;
}

/**
 * The member as the pages see them: an admin's grant of the NoL creator flag stands, and a
 * plan that grants it does so while its subscription is in force.
 */
function withPlanFeatures(
  member: UserRow,
  subscription: SubscriptionRow | null,
  now: Date,
  graceDays: number,
): UserRow {
  const granted = grantedFeatures(subscription, now, graceDays);
  return granted.includes("nolCreator") && !member.nolCreator ? { ...member, nolCreator: true } : member;
}

/** A live session (not revoked, expired, idle too long, or of a disabled member) with its people; marks it seen. */
export async function loadViewer(
  db: Database,
  sessionId: string,
  {
    idleDays = SESSION_IDLE_DAYS,
    graceDays = PAST_DUE_GRACE_DAYS,
    now = new Date(),
  }: { idleDays?: number; graceDays?: number; now?: Date } = {},
): Promise<Viewer | null> {
  // The session, its user and the user's latest subscription in one round trip: every
  // signed-in request asks for them.
  const latest = latestSubscriptionOf(db, sessions.userId).as("latest");
  const [row] = await db
    .select({ session: sessions, user: users, subscription: latest._.selectedFields })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoinLateral(latest, sql`true`)
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - idleDays * 86_400_000)),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  const seenBefore = new Date(now.getTime() - SEEN_EVERY_MS);
  if (row.session.lastSeenAt < seenBefore) {
    // Only the first of concurrent requests writes.
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, seenBefore)));
    row.session.lastSeenAt = now;
  }
  let agent: UserRow | null = null;
  if (row.session.agentUserId && row.user.admin) {
    const [represented] = await db.select().from(users).where(eq(users.id, row.session.agentUserId)).limit(1);
    agent = represented ?? null;
  }
  const subscription = agent ? await latestSubscription(db, agent.id) : row.subscription;
  const member = withPlanFeatures(agent ?? row.user, subscription, now, graceDays);
  const user = agent ? row.user : member;
  return { session: row.session, user, agent, member, subscription };
}

/**
 * Marks the session checked now (login and subscription) and reads it again: concurrent
 * rechecks of one session all see one update. Null once the session has ended.
 */
export async function recheckSession(
  db: Database,
  sessionId: string,
  graceDays = PAST_DUE_GRACE_DAYS,
): Promise<Viewer | null> {
  const now = new Date();
  await db
    .update(sessions)
    .set({ loginCheckedAt: now, subCheckedAt: now, lastSeenAt: now })
    .where(eq(sessions.id, sessionId));
  return loadViewer(db, sessionId, { now, graceDays });
}

export class StateHeaderError extends Error {}

/** The session's viewer, through the server's cache of recent viewers. */
const cachedViewer = ({ viewers, db, config }: AppServices, id: string) =>
  viewers.read(id, () => loadViewer(db, id, { idleDays: config.sessionIdleDays, graceDays: config.pastDueGraceDays }));

// The root loader and the page's loader read the same document request: load its viewer once.
const viewerCache = new WeakMap<Request, Promise<Viewer | null>>();

export function getViewer(request: Request, services: AppServices): Promise<Viewer | null> {
  let cached = viewerCache.get(request);
  if (!cached) {
    cached = readViewer(request, services);
    viewerCache.set(request, cached);
  }
  return cached;
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

export function sessionStateCore(viewer: Viewer, config: AppConfig): SessionStateCore {
  const { user, agent, member, subscription, session } = viewer;
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
async function viewerOrNull(request: Request, services: AppServices): Promise<Viewer | null> {
  try {
    return await getViewer(request, services);
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
  const viewer = await getViewer(request, services).catch(() => null);
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
  const viewer = await viewerOrNull(request, services);
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

/** Like requireMember, and the person signed in must be an admin. */
export async function requireAdmin(request: Request, context: AppLoadContext) {
  const result = await requireMember(request, context);
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
    throw errorJson(new DomainError("forbidden", "Finish your setup first", { extra: { needsSetup: true } }));
  }
  return result;
}

/** Like requireApiMember, and the person signed in must be an admin: else 403, as requireAdmin's pages. */
export async function requireApiAdmin(request: Request, context: AppLoadContext) {
  const result = await requireApiMember(request, context);
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
