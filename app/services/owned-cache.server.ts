import { keepableRender } from "~/db/query-count.server";
import { keptReads, listenFor } from "./heard-changes.server";
import type { HeardCache, KeepingOptions, ListeningDatabase } from "./heard-changes.server";

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

export type OwnedCache = Omit<HeardCache, "setKeeping" | "attach"> & {
  /**
   * While a page that may be kept renders (`forPage`, or a render to be kept): the value kept
   * under `key`, or `load`'s, kept unless a change of `topic` was heard while it loaded.
   * Otherwise `load`'s, not kept.
   */
  read<T>(key: string, topic: OwnedTopic, load: () => Promise<T>, forPage?: boolean): Promise<T>;
  /** Drops what the notification names ("*": everything). */
  forget(payload: string): void;
};

export function createOwnedCache(options: KeepingOptions = {}): OwnedCache & HeardCache {
  const kept = keptReads<string, unknown, OwnedTopic>(options, { ttlMs: TTL_MS, maxEntries: MAX_ENTRIES });
  return kept.cache<Pick<OwnedCache, "read" | "forget">>({
    async read<T>(key: string, topic: OwnedTopic, load: () => Promise<T>, forPage = false) {
      return forPage || keepableRender() ? kept.read(key, load, () => topic) : load();
    },
    forget(payload: string) {
      kept.forget(payload === "*" ? undefined : (topic) => topic === payload);
    },
  });
}

/**
 * The services as the render of a page that may be kept sees them, whether or not this render
 * is the one to be kept (a page asked for the first time: decision 067): its owners' data read
 * from the cache, as the render to be kept reads it.
 */
export function pageServices<S extends { owned: OwnedCache }>(services: S): S {
  const { owned } = services;
  const forPage: OwnedCache = Object.create(owned, {
    read: { value: <T>(key: string, topic: OwnedTopic, load: () => Promise<T>) => owned.read(key, topic, load, true) },
  });
  return Object.create(services, { owned: { value: forPage } }) as S;
}

/** The cache of a server, listening to the database's notifications of changed entries and members. */
export function listeningOwnedCache(database: ListeningDatabase): OwnedCache {
  return listenFor(database, OWNED_CHANNEL, createOwnedCache());
}
