import { sql, type SQL } from "drizzle-orm";

/**
 * Every advisory lock key of the app, in one place so no two jobs take the same key by chance.
 * The two-key locks (`LOCK`) are transaction-scoped: each is held until its transaction ends.
 */

/** Single-key (bigint) locks, each taken alone. */
export const SINGLE_LOCK = {
  /** Migrations at start: one server migrates, the others wait (session-level, released after). */
  migrations: 727_245_110_031,
  /** The demo seed of a new database: one server seeds, the others then see it done. */
  demoSeed: 727_245_110_032,
  /** Creating the job runner's queues: concurrent creation deadlocks inside pg-boss on PostgreSQL. */
  jobQueues: 727_245_110_033,
  /**
   * Installing the job runner's schema: pg-boss checks whether it is installed outside its own
   * lock, and two servers that both find it missing on a new database both create it, the
   * second failing on the schema's name (session-level, released after).
   */
  jobSchema: 727_245_110_034,
} as const;

export const LOCK = {
  /**
   * Entry numbers of one form id (the second key): the next number is max + 1, so two entries
   * of one form are numbered one after the other. Taken by the built-in forms engine and by
   * the NoL step save, which number their entries the same way as the hosted forms do.
   */
  formEntryNumbers: 727245,
  /**
   * One step of one member version (owner, cause, version hashed as the second key): a second
   * submit of the same step waits, then finds it taken.
   */
  versionStep: 727246,
  /** The webhook deliveries of one hosted-form entry (its id hashed), handled one after the other. */
  hostedEntryDelivery: 727247,
  /** The versions of one document template scope (cause, kind, round as text): numbered one after the other. */
  templateScope: 727248,
} as const;

/** `select pg_advisory_xact_lock(key, id)`: an int id as is, a text one through hashtext. */
export function xactLock(key: (typeof LOCK)[keyof typeof LOCK], id: number | string): SQL {
  const second = typeof id === "number" ? sql`${id}::int` : sql`hashtext(${id})`;
  return sql`select pg_advisory_xact_lock(${sql.raw(String(key))}, ${second})`;
}
