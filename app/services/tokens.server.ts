import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { oneTimeTokens, type tokenPurpose } from "~/db/schema";

type Purpose = (typeof tokenPurpose.enumValues)[number];

export function tokenHash(raw: string): string {
  return createHash("sha256").update(raw).digest("hex");
}

/** A single-use code: only its hash is stored; the raw code goes to the member. */
export async function issueToken(
  db: Database,
  purpose: Purpose,
  userId: string,
  ttlMs: number,
  /** What the code is for beyond its purpose (an e-mail change's new address). */
  data: Record<string, string> | null = null,
): Promise<string> {
  const raw = randomBytes(32).toString("base64url");
  await db.insert(oneTimeTokens).values({
    purpose,
    tokenHash: tokenHash(raw),
    userId,
    data,
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return raw;
}

/** The code's row while it is live: unused and not expired. */
function live(purpose: Purpose, raw: string) {
  return and(
    eq(oneTimeTokens.purpose, purpose),
    eq(oneTimeTokens.tokenHash, tokenHash(raw)),
    isNull(oneTimeTokens.usedAt),
    gt(oneTimeTokens.expiresAt, new Date()),
  );
}

/** Marks a live code used and returns its member (and data); a used, expired or unknown code gives null. */
export async function consumeToken(
  db: Database,
  purpose: Purpose,
  raw: string,
): Promise<{ userId: string; data: Record<string, string> | null } | null> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(live(purpose, raw))
    .returning({ userId: oneTimeTokens.userId, data: oneTimeTokens.data });
  return row?.userId ? { userId: row.userId, data: (row.data as Record<string, string> | null) ?? null } : null;
}

/** The member of a live code (and its data), without using it. */
export async function tokenOwner(
  db: Database,
  purpose: Purpose,
  raw: string,
): Promise<{ userId: string; data: Record<string, string> | null } | null> {
  const [row] = await db
    .select({ userId: oneTimeTokens.userId, data: oneTimeTokens.data })
    .from(oneTimeTokens)
    .where(live(purpose, raw))
    .limit(1);
  return row?.userId ? { userId: row.userId, data: (row.data as Record<string, string> | null) ?? null } : null;
}

/** True while a code is live, without using it (to show a form before it is submitted). */
export async function tokenIsLive(db: Database, purpose: Purpose, raw: string): Promise<boolean> {
  return (await tokenOwner(db, purpose, raw)) !== null;
}
