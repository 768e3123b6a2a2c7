import { and, eq, sql } from "drizzle-orm";
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
