import { keptReads, listenFor } from "./heard-changes.server";
import type { HeardCache, KeepingOptions, ListeningDatabase } from "./heard-changes.server";

/**
 * What most pages read and only admins change: the plans, the causes and the countries they
 * are open in, the countries, the coupons' names and the site's settings. Each server keeps
 * what it read of them until the database says one of those tables changed: migration 0014's
 * triggers `pg_notify('memberhall_reference', table)` on commit, whatever wrote it (a page, a
 * job, another server, the SQL console), and every server drops all it kept. While a server
 * cannot hear the notifications (before its LISTEN, or after the connection is lost) it keeps
 * nothing; a value read while a change was heard is not kept either, since it may predate it.
 * Kept values are shared by every request, so they are frozen.
 * Why it is shaped so: docs/decisions/039-reference-cache.md.
 */

export const REFERENCE_CHANNEL = "memberhall_reference";
const TTL_MS = 60_000;

/** The names of what is kept (each read of the tables that notify). */
export type ReferenceKey = "cause-catalogue" | "creator-plans" | "member-list-choices";

export type ReferenceCache = Omit<HeardCache, "setKeeping" | "attach"> & {
  /** The value kept under `key`, or the loader's, kept unless a change was heard while it loaded. */
  read<T>(key: ReferenceKey, load: () => Promise<T>): Promise<T>;
  /** Drops everything kept. */
  forget(): void;
};

export function createReferenceCache(options: Omit<KeepingOptions, "maxEntries"> = {}): ReferenceCache & HeardCache {
  const kept = keptReads<ReferenceKey, unknown, ReferenceKey>(options, { ttlMs: TTL_MS });
  return kept.cache<Pick<ReferenceCache, "read" | "forget">>({
    read<T>(key: ReferenceKey, load: () => Promise<T>) {
      return kept.read(key, load, () => key);
    },
    forget() {
      kept.forget();
    },
  });
}

/** The cache of a server, listening to the database's notifications of changed reference tables. */
export function listeningReferenceCache(database: ListeningDatabase): ReferenceCache {
  return listenFor(database, REFERENCE_CHANNEL, createReferenceCache());
}
