import { sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { oneTimeTokens, users } from "~/db/schema";
import { audit } from "./audit.server";
import { loadViewer, startSession, type Viewer } from "./session.server";
import { tokenHash } from "./tokens.server";

/**
 * The learning site hands a member over inside its frame with `auth_code` and `hash`; the
 * provider checks the code, this service finds the member, makes the code single-use and
 * starts the session.
 */
export type HandoffResult = { ok: true; viewer: Viewer } | { ok: false; status: 400 | 401 | 503; error: string };

export async function redeemHandoff(
  services: AppServices,
  query: URLSearchParams,
  meta: { devicePublicKey: string; ip: string; userAgent: string | null },
  now = new Date(),
): Promise<HandoffResult> {
  const checked = services.providers.learningSite.checkHandoff(query, now);
  if (!checked.ok) return checked;
  const { code, ...payload } = checked.handoff;

  // The learning site names the member by username or e-mail; an e-mail counts only once the
  // member has confirmed it, so nobody can sign up with another person's address to be handed
  // their session. A username match comes first.
  const sub = payload.sub.toLowerCase();
  const byUsername = sql`lower(${users.username}) = ${sub}`;
  const [user] = await services.db
    .select()
    .from(users)
    .where(
      sql`(${byUsername} or (lower(${users.email}) = ${sub} and ${users.emailVerifiedAt} is not null)) and ${users.disabledAt} is null`,
    )
    .orderBy(sql`${byUsername} desc`)
    .limit(1);
  if (!user) return { ok: false, status: 401, error: "No member matches this hand-off" };

  // The unique index on (purpose, token_hash) makes the code single-use, even across servers.
  const claimed = await services.db
    .insert(oneTimeTokens)
    .values({
      purpose: "lrm_handoff",
      tokenHash: tokenHash(code),
      userId: user.id,
      expiresAt: payload.expiresAt,
      usedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: oneTimeTokens.id });
  if (claimed.length === 0) return { ok: false, status: 401, error: "This hand-off code was already used" };

  const session = await startSession(services.db, {
    userId: user.id,
    carrier: "state",
    devicePublicKey: meta.devicePublicKey,
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  await audit(services.db, { actorUserId: user.id, agentUserId: null }, "login.handoff", "session", null);
  const viewer = await loadViewer(services.db, session.id);
  return viewer ? { ok: true, viewer } : { ok: false, status: 401, error: "The session could not start" };
}

/** Where /sso sends a signed-in member: the learning site's signed address, or null when not set up. */
export function ssoTarget(services: AppServices, username: string, search: URLSearchParams, now = new Date()) {
  return services.providers.learningSite.signInUrl(username, search, now);
}
