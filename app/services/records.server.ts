import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";

/** One mail of the outbox, whole: the built-in mail provider's inbox shows its text and links. */
export async function outboxMessage(db: Database, id: number) {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row ? { ...row, createdAt: row.createdAt.toISOString(), sentAt: row.sentAt?.toISOString() ?? null } : null;
}
