import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { oneTimeTokens, rememberedDevices } from "~/db/schema";
import { invalid } from "~/domain/errors";
import { deviceRemembered, rememberedUntil } from "~/domain/second-factor";
import { audit } from "../audit.server";
import { siteCookies } from "../site-cookies.server";
import { startSession, type ClientMeta } from "../session.server";
import { consumeToken, issueToken, tokenOwner } from "../tokens.server";
import { factorPassed, hasFactor, type PassedKind } from "./records.server";

/**
 * Signing in with a second factor: after the password, a member with a factor is held in a
 * short-lived signed cookie (no session yet) until the factor passes at /login/factor; a
 * device whose key passed one within REMEMBER_DEVICE_DAYS skips it (decision 045). The cookie
 * names a record on the server, used once by the session it opens (decision 062).
 */

/** Minutes a password stands while the second factor is asked for. */
export const PENDING_LOGIN_MINUTES = 10;

const pendingSchema = z.object({
  userId: z.string().uuid(),
  redirectTo: z.string().max(2_000),
  devicePublicKey: z.string().nullable(),
  /** The sign-in's one-time token: a signed cookie can be sent again, the token is taken once. */
  token: z.string().min(1).max(100),
  until: z.number(),
});
export type PendingLogin = z.infer<typeof pendingSchema>;

export const PENDING_LOGIN_USED_MESSAGE = "This sign-in was finished already. Log in again.";

export async function pendingLoginCookie(
  services: AppServices,
  pending: Omit<PendingLogin, "until" | "token">,
): Promise<string> {
  const { db, config } = services;
  const ttl = PENDING_LOGIN_MINUTES * 60_000;
  // Tokens past their time go with the next one made: their cookies are past it too.
  await db
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.purpose, "pending_login"), lt(oneTimeTokens.expiresAt, new Date())));
  const token = await issueToken(db, "pending_login", pending.userId, ttl);
  const value: PendingLogin = { ...pending, token, until: Date.now() + ttl };
  return siteCookies(config).pendingLogin.serialize(value);
}

/** Whether the sign-in is still to finish: its token not taken by a session yet, nor too old. */
export async function pendingLoginOpen(db: Database, pending: PendingLogin): Promise<boolean> {
  return (await tokenOwner(db, "pending_login", pending.token))?.userId === pending.userId;
}

export async function clearPendingLoginCookie(config: AppConfig): Promise<string> {
  return siteCookies(config).pendingLogin.serialize("", { maxAge: 0 });
}

/** The sign-in waiting for its second factor, or null (none, tampered with, or too old). */
export async function readPendingLogin(request: Request, config: AppConfig): Promise<PendingLogin | null> {
  const raw: unknown = await siteCookies(config).pendingLogin.parse(request.headers.get("cookie"));
  const parsed = pendingSchema.safeParse(raw);
  if (!parsed.success || parsed.data.until < Date.now()) return null;
  return parsed.data;
}

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The browser's remembered-device secret, from its cookie, or null. */
export async function rememberToken(request: Request, config: AppConfig): Promise<string | null> {
  const value: unknown = await siteCookies(config).rememberedDevice.parse(request.headers.get("cookie"));
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** The Set-Cookie of a remembered-device secret, for REMEMBER_DEVICE_DAYS. */
export function rememberCookie(config: AppConfig, token: string): Promise<string> {
  return siteCookies(config).rememberedDevice.serialize(token);
}

/**
 * The member's remembered device that this browser proves with its cookie's secret: when it
 * passed its factor, or null. (The device's state-header key is no proof: it is public.)
 */
export async function rememberedDevice(
  db: Database,
  userId: string,
  token: string | null | undefined,
  now = new Date(),
): Promise<Date | null> {
  if (!token) return null;
  const [row] = await db
    .select({
      createdAt: rememberedDevices.createdAt,
      until: rememberedDevices.until,
      revokedAt: rememberedDevices.revokedAt,
    })
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.userId, userId), eq(rememberedDevices.tokenHash, tokenHash(token))))
    .limit(1);
  return row && deviceRemembered(row, now) ? row.createdAt : null;
}

/**
 * What a right password leads to: a session at once (no factor, or a remembered device, whose
 * session counts the factor as passed when the device passed it), or the factor to ask for.
 */
export async function afterPassword(
  db: Database,
  userId: string,
  token: string | null,
): Promise<{ kind: "session"; factorPassedAt: Date | null } | { kind: "factor" }> {
  if (!(await hasFactor(db, userId))) return { kind: "session", factorPassedAt: null };
  const remembered = await rememberedDevice(db, userId, token);
  return remembered ? { kind: "session", factorPassedAt: remembered } : { kind: "factor" };
}

/**
 * Opens the session of a sign-in whose factor passed: audited and e-mailed, and the browser
 * remembered when the member asked (answers the secret its cookie keeps). A sign-in that waited
 * for its factor gives its token, taken in the transaction that opens the session: its cookie
 * opens one session, sent again later or twice at once (a passkey alone brings none).
 */
export async function finishLogin(
  services: AppServices,
  userId: string,
  client: ClientMeta,
  passed: { kind: PassedKind; factorId: string | null; remember: boolean },
  pendingToken: string | null,
): Promise<{ sessionId: string; rememberToken: string | null }> {
  const { db } = services;
  const session = await db.transaction(async (tx) => {
    if (pendingToken !== null) {
      const taken = await consumeToken(tx, "pending_login", pendingToken);
      if (taken?.userId !== userId) throw invalid(PENDING_LOGIN_USED_MESSAGE);
    }
    return startSession(tx, { userId, carrier: "cookie", ...client });
  });
  const actor = { actorUserId: userId, agentUserId: null, ip: client.ip };
  await factorPassed(services, { userId, sessionId: session.id, ...passed, use: "sign-in", actor });
  let token: string | null = null;
  if (passed.remember) {
    token = randomBytes(32).toString("base64url");
    await db.insert(rememberedDevices).values({
      userId,
      tokenHash: tokenHash(token),
      devicePublicKey: client.devicePublicKey ?? null,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      until: rememberedUntil(new Date()),
    });
    await audit(db, actor, "factor.device-remembered", "user", userId);
  }
  await audit(db, actor, "login", "session", null);
  return { sessionId: session.id, rememberToken: token };
}

/** The member's remembered devices still in force, newest first. */
export async function rememberedDeviceList(db: Database, userId: string) {
  return db
    .select({
      id: rememberedDevices.id,
      userAgent: rememberedDevices.userAgent,
      createdAt: rememberedDevices.createdAt,
      until: rememberedDevices.until,
    })
    .from(rememberedDevices)
    .where(
      and(
        eq(rememberedDevices.userId, userId),
        isNull(rememberedDevices.revokedAt),
        gt(rememberedDevices.until, sql`now()`),
      ),
    )
    .orderBy(desc(rememberedDevices.createdAt))
    .limit(50);
}

/** Stops remembering one device (or all, with no id); answers how many were. */
export async function forgetDevices(db: Database, userId: string, deviceId?: string): Promise<number> {
  const rows = await db
    .update(rememberedDevices)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(rememberedDevices.userId, userId),
        isNull(rememberedDevices.revokedAt),
        deviceId ? eq(rememberedDevices.id, deviceId) : undefined,
      ),
    )
    .returning({ id: rememberedDevices.id });
  return rows.length;
}
