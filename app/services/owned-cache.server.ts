import { keepableRender } from "~/db/query-count.server";
import { deepFreeze } from "~/lib/deep-freeze";
import {
  heardCache,
  heardChanges,
  listenFor,
  noteKeptRead,
  type HeardCache,
  type ListeningDatabase,
} from "./heard-changes.server";

/**
 * What the pages kept as rendered read of the data members and admins change: an owner's NoL
 * entries of a cause (the step page) and the members list (docs/decisions/056-member-pages-kept.md).
 * Read from here only while rendering a page that may be kept (`keepableRender`); every other
 * read, and every action, goes to the database. Migration 0021's triggers notify
 * `memberhall_owned` on commit, whoever wrote (a page, a job, a webhook, another server, the
 * SQL console): `entries:{owner}` when an owner's entries change, `users` when any member row
 * does; each server drops what the payload names. As with the other caches, nothing is kept
 * while the notifications are not heard, and a value read while a change was heard is not kept.
 */

export const OWNED_CHANNEL = "memberhall_owned";
const TTL_MS = 30_000;
const MAX_ENTRIES = 2_000;

/** What a kept value changes with: an owner's entries, or the members' rows. */
export type OwnedTopic = `entries:${string}` | "users";

type Entry = { value: unknown; until: number; topic: OwnedTopic };

export type OwnedCache = Omit<HeardCache, "setKeeping" | "attach"> & {
  /**
   * While a page that may be kept renders: the value kept under `key`, or `load`'s, kept unless
   * a change of `topic` was heard while it loaded. Otherwise `load`'s, not kept.
   */
  read<T>(key: string, topic: OwnedTopic, load: () => Promise<T>): Promise<T>;
  /** Drops what the notification names ("*": everything). */
  forget(payload: string): void;
};

export function createOwnedCache(
  options: { now?: () => number; ttlMs?: number; maxEntries?: number } = {},
): OwnedCache & HeardCache {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? TTL_MS;
  const max = options.maxEntries ?? MAX_ENTRIES;
  const entries = new Map<string, Entry>();
  const heard = heardChanges<string>(() => entries.clear());
  const good = (entry: Entry) => heard.keeping && entry.until > now();

  return heardCache<Pick<OwnedCache, "read" | "forget">>(heard, () => entries.size, {
    async read<T>(key: string, topic: OwnedTopic, load: () => Promise<T>) {
      if (!keepableRender()) return load();
      const entry = entries.get(key);
      if (entry && good(entry)) {
        noteKeptRead(entries, key, () => true, good);
        return entry.value as T;
      }
      if (entry) entries.delete(key);
      const at = now();
      const value = await heard.read(
        key,
        async () => deepFreeze(await load()),
        (value) => {
          if (entries.size >= max) entries.delete(entries.keys().next().value!);
          entries.set(key, { value, until: at + ttl, topic });
        },
      );
      noteKeptRead(entries, key, (kept) => kept.value === value, good);
      return value;
    },
    forget(payload: string) {
      heard.heard();
      if (payload === "*") {
        entries.clear();
        return;
      }
      for (const [key, entry] of entries) if (entry.topic === payload) entries.delete(key);
    },
  });
}

/** The cache of a server, listening to the database's notifications of changed entries and members. */
export function listeningOwnedCache(database: ListeningDatabase): OwnedCache {
  return listenFor(database, OWNED_CHANNEL, createOwnedCache());
}
