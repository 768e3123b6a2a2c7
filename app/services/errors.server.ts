import { desc } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { errorReports } from "~/db/schema";
import { invalid, type FieldErrors } from "~/domain/errors";
import { hasNul, redactUrl } from "~/domain/requests";

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

/** Reads at most `limit` bytes of a body; null when it is larger. */
export async function readCappedText(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A body's text as JSON: a NUL character, or text that is not JSON, is invalid. */
export function parseJsonText(text: string, notJsonMessage: string): unknown {
  if (hasNul(text)) throw invalid("The body contains a character that cannot be used");
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(notJsonMessage);
  }
}

/** A zod error as the API's field errors, keyed by the path of each value ("0.time"; the whole body is "body"). */
export function issuesByPath(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}
