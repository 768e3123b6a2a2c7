import { createHash } from "node:crypto";
import { z } from "zod";
import { equalHex, hmacHex } from "~/lib/crypto.server";
import type { LearningSiteProvider } from "./types";

/**
 * A Docebo-style learning site.
 * - Hand-off inside its frame: `auth_code` is base64url JSON {sub, iat, nonce} (sub: username
 *   or e-mail, iat: unix seconds), `hash` is hex HMAC-SHA256(handoffSecret, auth_code). A code
 *   works for HANDOFF_TTL_SECONDS after iat (and once: the service records its use).
 * - SSO: login_user, time (unix seconds) and token, the upper-case MD5 of
 *   "username,time,secret"; other parameters pass through.
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

export function doceboLearningSite(settings: {
  handoffSecret: string | undefined;
  ssoUrl: string | undefined;
  ssoSecret: string | undefined;
}): LearningSiteProvider {
  return {
    name: settings.handoffSecret || settings.ssoUrl ? "docebo" : "off",
    signInUrl(username, search, now = new Date()) {
      if (!settings.ssoUrl || !settings.ssoSecret) return null;
      const time = Math.floor(now.getTime() / 1_000);
      const token = createHash("md5").update(`${username},${time},${settings.ssoSecret}`).digest("hex").toUpperCase();
      const url = new URL(settings.ssoUrl);
      for (const [key, value] of search) {
        if (!["login_user", "time", "token"].includes(key)) url.searchParams.append(key, value);
      }
      url.searchParams.set("login_user", username);
      url.searchParams.set("time", String(time));
      url.searchParams.set("token", token);
      return url.toString();
    },
    checkHandoff(query, now = new Date()) {
      const secret = settings.handoffSecret;
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
      if (age > HANDOFF_TTL_SECONDS || age < -60)
        return { ok: false, status: 401, error: "The hand-off code has expired" };
      return {
        ok: true,
        handoff: { code, ...payload, expiresAt: new Date((payload.iat + HANDOFF_TTL_SECONDS) * 1_000) },
      };
    },
  };
}

/** Makes a hand-off code as the learning site does (for its integration and for tests). */
export function makeHandoffCode(secret: string, sub: string, iat: number, nonce: string) {
  const auth_code = Buffer.from(JSON.stringify({ sub, iat, nonce })).toString("base64url");
  return { auth_code, hash: hmacHex(secret, auth_code) };
}
