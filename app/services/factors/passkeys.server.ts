import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { users, userFactors, webauthnChallenges } from "~/db/schema";
import { communityFor } from "~/domain/community";
import { invalid } from "~/domain/errors";

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): registered from the security page,
 * used alone to sign in (a discoverable credential, verified by the device's unlock) or as the
 * second factor after a password or before a sensitive action. Each challenge is kept in the
 * database and answered once, within CHALLENGE_MINUTES, on whichever server the answer reaches.
 */

export const CHALLENGE_MINUTES = 5;
export const PASSKEY_FAILED_MESSAGE = "That passkey could not be used. Try again, or use another way.";

/** What a challenge is for: a new passkey, a sign-in by passkey alone, or a second factor (sign-in or step-up). */
export type PasskeyPurpose = "register" | "sign-in" | "factor";

/** The relying party: the site's host, and the origin its pages are served from (BASE_URL). */
export function relyingParty(config: AppConfig) {
  const url = new URL(config.baseUrl);
  return { id: url.hostname, origin: url.origin, name: communityFor(config.community).name };
}

async function keepChallenge(db: Database, challenge: string, purpose: PasskeyPurpose, userId: string | null) {
  const now = new Date();
  // Challenges never answered go with the next one made.
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  const [row] = await db
    .insert(webauthnChallenges)
    .values({ challenge, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000) })
    .returning({ id: webauthnChallenges.id });
  return row!.id;
}

/** Takes a challenge once: the answer of a second request with the same one finds nothing. */
async function takeChallenge(
  db: Database,
  id: string,
  purpose: PasskeyPurpose,
  userId: string | null,
): Promise<string | null> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.id, id),
        eq(webauthnChallenges.purpose, purpose),
        userId ? eq(webauthnChallenges.userId, userId) : isNull(webauthnChallenges.userId),
        sql`${webauthnChallenges.expiresAt} > now()`,
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return row?.challenge ?? null;
}

const passkeyRows = (db: Database, userId: string) =>
  db
    .select({ credentialId: userFactors.credentialId, transports: userFactors.transports })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, "passkey")));

type Transport = "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb";

/** The options a browser needs to make a passkey for the member, and the challenge's id to answer with. */
export async function registrationOptions(services: AppServices, userId: string) {
  const { db, config } = services;
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  if (!user) throw invalid("Sign in again");
  const rp = relyingParty(config);
  const existing = await passkeyRows(db, userId);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userID: new TextEncoder().encode(userId),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId!,
      transports: (row.transports ?? undefined) as Transport[] | undefined,
    })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  return { options, challengeId: await keepChallenge(db, options.challenge, "register", userId) };
}

/** The browser's answer, as it posts it: JSON of the credential, and the challenge it answers. */
export const passkeyAnswerSchema = z.object({
  challengeId: z.string().uuid("Start again"),
  credential: z
    .string()
    .max(20_000)
    .transform((text, ctx) => {
      try {
        const value: unknown = JSON.parse(text);
        if (value && typeof value === "object" && "id" in value && "response" in value) return value;
      } catch {
        // Refused below.
      }
      ctx.addIssue({ code: "custom", message: PASSKEY_FAILED_MESSAGE });
      return z.NEVER;
    }),
});
export type PasskeyAnswer = z.infer<typeof passkeyAnswerSchema>;

/**
 * A form's passkey field (passkey-client.ts fills it): null when empty; a field that is no
 * answer is refused with the passkey's one message.
 */
export function readPasskeyField(value: FormDataEntryValue | null): PasskeyAnswer | null {
  if (typeof value !== "string" || value === "") return null;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  const answer = passkeyAnswerSchema.safeParse(parsed);
  if (!answer.success) throw invalid(PASSKEY_FAILED_MESSAGE);
  return answer.data;
}

/** Verifies a new passkey and keeps it under its name; answers its id. */
export async function addPasskey(
  services: AppServices,
  userId: string,
  answer: PasskeyAnswer,
  name: string,
): Promise<string> {
  const { db, config } = services;
  const challenge = await takeChallenge(db, answer.challengeId, "register", userId);
  if (!challenge) throw invalid("This passkey request has expired. Start again.");
  const rp = relyingParty(config);
  const result = await verifyRegistrationResponse({
    response: answer.credential as RegistrationResponseJSON,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) throw invalid(PASSKEY_FAILED_MESSAGE);
  const { credential } = result.registrationInfo;
  const [row] = await db
    .insert(userFactors)
    .values({
      userId,
      kind: "passkey",
      name,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      signCount: credential.counter,
      transports: credential.transports ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: userFactors.id });
  if (!row) throw invalid("This passkey is already registered.");
  return row.id;
}

/**
 * The options to ask for a passkey: any passkey of this site (sign-in alone, user verification
 * required), or one of the member's own (a second factor).
 */
export async function authenticationOptions(
  services: AppServices,
  purpose: "sign-in" | "factor",
  userId: string | null,
) {
  const { db, config } = services;
  const allow = userId ? await passkeyRows(db, userId) : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(config).id,
    allowCredentials: allow.map((row) => ({
      id: row.credentialId!,
      transports: (row.transports ?? undefined) as Transport[] | undefined,
    })),
    userVerification: purpose === "sign-in" ? "required" : "preferred",
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  return { options, challengeId: await keepChallenge(db, options.challenge, purpose, userId) };
}

/**
 * Verifies a passkey's answer to a challenge: for a sign-in alone, any member's passkey with
 * the device's user verification; for a second factor, one of that member's. Answers whose
 * passkey it was; anything else is refused with one message.
 */
export async function verifyPasskey(
  services: AppServices,
  purpose: "sign-in" | "factor",
  userId: string | null,
  answer: PasskeyAnswer,
): Promise<{ userId: string; factorId: string }> {
  const { db, config } = services;
  const challenge = await takeChallenge(db, answer.challengeId, purpose, userId);
  if (!challenge) throw invalid("This passkey request has expired. Try again.");
  const response = answer.credential as AuthenticationResponseJSON;
  const [factor] = await db
    .select()
    .from(userFactors)
    .where(
      and(
        eq(userFactors.kind, "passkey"),
        eq(userFactors.credentialId, String(response.id)),
        userId ? eq(userFactors.userId, userId) : undefined,
      ),
    );
  if (!factor?.publicKey || !factor.credentialId) throw invalid(PASSKEY_FAILED_MESSAGE);
  // A disabled account signs in by no way at all.
  const [owner] = await db.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, factor.userId));
  if (!owner || owner.disabledAt) throw invalid(PASSKEY_FAILED_MESSAGE);
  const rp = relyingParty(config);
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: factor.credentialId,
      publicKey: new Uint8Array(Buffer.from(factor.publicKey, "base64url")),
      counter: factor.signCount,
      transports: (factor.transports ?? undefined) as Transport[] | undefined,
    },
    requireUserVerification: purpose === "sign-in",
  }).catch(() => null);
  if (!result?.verified) throw invalid(PASSKEY_FAILED_MESSAGE);
  // A counter that went back is a cloned authenticator: refused. Synced passkeys keep 0.
  const newCounter = result.authenticationInfo.newCounter;
  const [moved] = await db
    .update(userFactors)
    .set({ signCount: newCounter })
    .where(
      and(
        eq(userFactors.id, factor.id),
        or(sql`${newCounter} = 0 and ${userFactors.signCount} = 0`, lt(userFactors.signCount, newCounter)),
      ),
    )
    .returning({ id: userFactors.id });
  if (!moved) throw invalid(PASSKEY_FAILED_MESSAGE);
  return { userId: factor.userId, factorId: factor.id };
}

/** Removes one of the member's passkeys; answers its name, or null when there was none. */
export async function removePasskey(db: Database, userId: string, factorId: string): Promise<string | null> {
  const [row] = await db
    .delete(userFactors)
    .where(and(eq(userFactors.id, factorId), eq(userFactors.userId, userId), eq(userFactors.kind, "passkey")))
    .returning({ name: userFactors.name });
  return row?.name ?? null;
}
