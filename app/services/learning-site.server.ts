import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import { oneTimeTokens, users } from "~/db/schema";
import { audit } from "./audit.server";
import { loadViewer, startSession, type Viewer } from "./session.server";
import { equalHex, hmacHex } from "./state-header.server";
import { tokenHash } from "./tokens.server";

/**
 * The learning site hands a member over inside its frame with `auth_code` and `hash`:
 * auth_code is base64url JSON {sub, iat, nonce} (sub: username or e-mail, iat: unix
 * seconds), hash is hex HMAC-SHA256(LRM_HANDOFF_SECRET, auth_code). A code works once and
 * for HANDOFF_TTL_SECONDS after iat.
 */
export const HANDOFF_TTL_SECONDS = 300;

const handoffQuerySchema = z.object({
  auth_code: z.string().min(10).max(2_000),
  hash: z.string().regex(/^[0-9a-f]{64}$/i, "hash must be 64 hex characters"),
});

const handoffPayloadSchema = z.object({
  sub: z.string().min(1).max(254),
  iat: z.number().int().positive(),
  nonce: z.string().min(8).max(200),
});

export type HandoffResult = { ok: true; viewer: Viewer } | { ok: false; status: 400 | 401 | 503; error: string };

export async function redeemHandoff(
  services: AppServices,
  query: URLSearchParams,
  meta: { devicePublicKey: string; ip: string; userAgent: string | null },
  now = new Date(),
): Promise<HandoffResult> {
  const secret = services.config.lrmHandoffSecret;
  if (!secret) return { ok: false, status: 503, error: "The learning-site hand-off is not set up" };
  const parsed = handoffQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) return { ok: false, status: 400, error: "auth_code and hash are required" };
  const { auth_code: code, hash } = parsed.data;
  if (!equalHex(hash.toLowerCase(), hmacHex(secret, code)))
    return { ok: false, status: 401, error: "The hand-off could not be verified" };

  let payload: z.infer<typeof handoffPayloadSchema>;
  try {
    const result = handoffPayloadSchema.safeParse(JSON.parse(Buffer.from(code, "base64url").toString("utf8")));
    if (!result.success) return { ok: false, status: 400, error: "auth_code is malformed" };
    payload = result.data;
  } catch {
    return { ok: false, status: 400, error: "auth_code is malformed" };
  }
  const age = now.getTime() / 1_000 - payload.iat;
  if (age > HANDOFF_TTL_SECONDS || age < -60) return { ok: false, status: 401, error: "The hand-off code has expired" };

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
      expiresAt: new Date((payload.iat + HANDOFF_TTL_SECONDS) * 1_000),
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

/** Makes a hand-off code as the learning site does (for its integration and for tests). */
export function makeHandoffCode(
  secret: string,
  sub: string,
  iat: number,
  nonce: string,
): { auth_code: string; hash: string } {
  const auth_code = Buffer.from(JSON.stringify({ sub, iat, nonce })).toString("base64url");
  return { auth_code, hash: hmacHex(secret, auth_code) };
}

/**
 * A Docebo-style SSO address: login_user, time (unix seconds) and token, the upper-case
 * MD5 of "username,time,secret"; other parameters pass through.
 */
export function ssoRedirectUrl(
  config: AppConfig,
  username: string,
  search: URLSearchParams,
  now = new Date(),
): string | null {
  if (!config.lrmSsoUrl || !config.lrmSsoSecret) return null;
  const time = Math.floor(now.getTime() / 1_000);
  const token = createHash("md5").update(`${username},${time},${config.lrmSsoSecret}`).digest("hex").toUpperCase();
  const url = new URL(config.lrmSsoUrl);
  for (const [key, value] of search) {
    if (!["login_user", "time", "token"].includes(key)) url.searchParams.append(key, value);
  }
  url.searchParams.set("login_user", username);
  url.searchParams.set("time", String(time));
  url.searchParams.set("token", token);
  return url.toString();
}
