import { sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { oneTimeTokens, users } from "~/db/schema";
import { DomainError, invalid, unauthorized } from "~/domain/errors";
import { audit } from "./audit.server";
import { loadViewer, startSession, type ClientMeta, type Viewer } from "./session.server";
import { tokenHash } from "./tokens.server";

const CHECK_KINDS = { 400: "invalid", 401: "unauthorized", 503: "unavailable" } as const;

/**
 * The learning site hands a member over inside its frame with `auth_code` and `hash`; the
 * provider checks the code, this service finds the member, makes the code single-use and
 * starts the session on the state-header carrier.
 */
export async function redeemHandoff(
  services: AppServices,
  query: URLSearchParams,
  client: ClientMeta,
  now = new Date(),
): Promise<Viewer> {
  if (!client.devicePublicKey) throw invalid("The device-key header must carry the device's public key");
  const checked = services.providers.learningSite.checkHandoff(query, now);
  if (!checked.ok) throw new DomainError(CHECK_KINDS[checked.status], checked.error);
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
  if (!user) throw unauthorized("No member matches this hand-off");

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
  if (claimed.length === 0) throw unauthorized("This hand-off code was already used");

  const session = await startSession(services.db, { userId: user.id, carrier: "state", ...client });
  await audit(
    services.db,
    { actorUserId: user.id, agentUserId: null, ip: client.ip },
    "login.handoff",
    "session",
    null,
  );
  const viewer = await loadViewer(services.db, session.id);
  if (!viewer) throw unauthorized("The session could not start");
  return viewer;
}

/** Where /sso sends a signed-in member: the learning site's signed address, or null when not set up. */
export function ssoTarget(services: AppServices, username: string, search: URLSearchParams, now = new Date()) {
  return services.providers.learningSite.signInUrl(username, search, now);
}
