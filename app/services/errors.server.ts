import { desc } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { errorReports } from "~/db/schema";
import { redactUrl } from "~/domain/requests";

/** A client error report (spec §8: time, href, message, stack and state). */
export const errorReportSchema = z.object({
  time: z.string().datetime({ offset: true }),
  href: z.string().max(2_000),
  message: z.string().min(1).max(2_000),
  stack: z.string().max(16_000).nullable().optional(),
  state: z.record(z.unknown()).nullable().optional(),
});

export const errorReportsSchema = z.array(errorReportSchema).min(1).max(20);

export const ERROR_BODY_LIMIT = 64 * 1024;

export async function storeErrorReports(
  db: Database,
  reports: z.infer<typeof errorReportsSchema>,
  meta: { userId: string | null; ip: string; userAgent: string | null },
): Promise<void> {
  await db.insert(errorReports).values(
    reports.map((r) => ({
      userId: meta.userId,
      time: new Date(r.time),
      href: redactUrl(r.href),
      message: r.message,
      stack: r.stack ?? null,
      state: r.state ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
    })),
  );
}

export async function latestErrorReports(db: Database, limit = 200) {
  const rows = await db.select().from(errorReports).orderBy(desc(errorReports.id)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    time: r.time.toISOString(),
    href: r.href,
    message: r.message,
    stack: r.stack,
  }));
}
