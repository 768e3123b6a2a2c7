import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { sandboxObjects } from "~/db/schema";

/**
 * The built-in providers' own records (`sandbox_objects`), kept apart from ours as a real
 * provider keeps them on its side: one JSON object per id, of a type the provider names.
 */

export type SandboxTx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type SandboxStore = Database | SandboxTx;

export async function readSandboxObject<T>(store: SandboxStore, id: string, type: string): Promise<T | null> {
  const [row] = await store
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.type, type)));
  return (row?.data as T | undefined) ?? null;
}

/**
 * Reads an object after taking the transaction's lock on `lock`: two requests for one object at
 * once take turns, as one step each, the way a provider serializes them on its side.
 */
export async function readLockedSandboxObject<T>(
  tx: SandboxTx,
  lock: string,
  id: string,
  type: string,
): Promise<T | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lock}))`);
  return readSandboxObject<T>(tx, id, type);
}

export async function writeSandboxObject(store: SandboxStore, id: string, type: string, data: object): Promise<void> {
  await store
    .insert(sandboxObjects)
    .values({ id, type, data: data as Record<string, unknown> })
    .onConflictDoUpdate({
      target: sandboxObjects.id,
      set: { data: data as Record<string, unknown>, updatedAt: new Date() },
    });
}

/**
 * The events of `type` the app has not taken yet, oldest first: each is kept as
 * `{ event, delivered }` until `markSandboxEventDelivered`, as a provider keeps resending a
 * webhook until it is acknowledged.
 */
export async function undeliveredSandboxEvents<E>(db: Database, type: string, limit: number): Promise<E[]> {
  const rows = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(and(eq(sandboxObjects.type, type), sql`(${sandboxObjects.data}->>'delivered')::boolean = false`))
    .orderBy(asc(sandboxObjects.id))
    .limit(limit);
  return rows.map((row) => (row.data as { event: E }).event);
}

/** Marks an event the app has taken: it is not handed out again. */
export async function markSandboxEventDelivered(db: Database, type: string, eventId: string): Promise<void> {
  await db
    .update(sandboxObjects)
    .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{delivered}', 'true')`, updatedAt: new Date() })
    .where(and(eq(sandboxObjects.id, eventId), eq(sandboxObjects.type, type)));
}
