import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { sandboxObjects } from "~/db/schema";

/**
 * The built-in providers' own records (`sandbox_objects`), kept apart from ours as a real
 * provider keeps them on its side: one JSON object per id, of a type the provider names.
 */

export type SandboxTx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type SandboxStore = Database | SandboxTx;

export async function readObject<T>(store: SandboxStore, id: string, type: string): Promise<T | null> {
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
export async function readLockedObject<T>(tx: SandboxTx, lock: string, id: string, type: string): Promise<T | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${lock}))`);
  return readObject<T>(tx, id, type);
}

export async function writeObject(store: SandboxStore, id: string, type: string, data: object): Promise<void> {
  await store
    .insert(sandboxObjects)
    .values({ id, type, data: data as Record<string, unknown> })
    .onConflictDoUpdate({
      target: sandboxObjects.id,
      set: { data: data as Record<string, unknown>, updatedAt: new Date() },
    });
}

/**
 * A built-in provider's events of `type` as the app takes them: the ones not taken yet, oldest
 * first, each as `revive` makes it again from its stored JSON, and the mark that one is taken.
 * An event is kept as `{ event, delivered }` until then, as a provider resends a webhook until
 * it is acknowledged.
 */
export function sandboxEventFeed<Stored, Event>(db: Database, type: string, revive: (stored: Stored) => Event) {
  return {
    async undeliveredEvents(limit = 100): Promise<Event[]> {
      const rows = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.type, type), sql`(${sandboxObjects.data}->>'delivered')::boolean = false`))
        .orderBy(asc(sandboxObjects.id))
        .limit(limit);
      return rows.map((row) => revive((row.data as { event: Stored }).event));
    },

    async markDelivered(eventId: string): Promise<void> {
      await db
        .update(sandboxObjects)
        .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{delivered}', 'true')`, updatedAt: new Date() })
        .where(and(eq(sandboxObjects.id, eventId), eq(sandboxObjects.type, type)));
    },
  };
}
