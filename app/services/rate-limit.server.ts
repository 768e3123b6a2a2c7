import { lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { rateLimits } from "~/db/schema";
import { tooMany } from "~/domain/errors";

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The fixed window `now` falls in. */
function windowOf(now: Date, windowSeconds: number) {
  const windowMs = windowSeconds * 1_000;
  return { windowMs, windowStart: new Date(Math.floor(now.getTime() / windowMs) * windowMs) };
}

/**
 * A fixed-window counter in the database, so every app server shares it. Counts this hit
 * and says whether it is within `limit` hits per `windowSeconds`.
 */
export async function hitRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowSeconds: number,
  now = new Date(),
): Promise<RateLimitResult> {
  const { windowMs, windowStart } = windowOf(now, windowSeconds);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  // Old windows are useless; clear them now and then rather than on a schedule.
  if (Math.random() < 0.01) {
    await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)));
  }
  if ((row?.count ?? 0) <= limit) return { ok: true };
  return {
    ok: false,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1_000)),
  };
}

/** Hits so far in the current window, without counting one. */
export async function rateLimitCount(db: Database, key: string, windowSeconds: number, now = new Date()) {
  const { windowStart } = windowOf(now, windowSeconds);
  const rows = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${key} and ${rateLimits.windowStart} = ${windowStart}`);
  return rows[0]?.count ?? 0;
}

/** Counts a hit like hitRateLimit; past the limit, stops the caller with a 429 saying `message`. */
export async function enforceRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowSeconds: number,
  message: string,
): Promise<void> {
  const result = await hitRateLimit(db, key, limit, windowSeconds);
  if (!result.ok) throw tooMany(message, result.retryAfterSeconds);
}
