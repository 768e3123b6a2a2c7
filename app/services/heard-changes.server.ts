import { randomUUID } from "node:crypto";
import type { DatabaseHandle, Listening } from "~/db/client.server";
import { readKept } from "~/db/query-count.server";
import { deepFreeze } from "~/lib/deep-freeze";

/**
 * What a cache kept correct by the database's notifications has of them: whether it keeps
 * (only while the notifications are heard: whatever it kept may have missed a change while
 * they were not), the count of the changes heard (a value read while one was heard may predate
 * it, and is not kept), its LISTEN, and its reads. `clear` drops everything the cache keeps.
 *
 * While values are kept, a request that finds its key being read since the last change heard
 * waits for that read instead of starting its own: the fifty requests that arrive when a kept
 * value runs out make one read, not fifty. A read begun before a change was heard is never
 * joined; while nothing is heard each request reads for itself.
 */
function heardChanges<K>(clear: () => void) {
  let keeping = false;
  let changes = 0;
  let listening: Listening | null = null;
  const reads = new Map<K, { changes: number; promise: Promise<unknown> }>();
  return {
    get keeping() {
      return keeping;
    },
    /** The changes heard so far (and each time keeping started or stopped): a value read across a change may predate it. */
    get changes() {
      return changes;
    },
    heard() {
      changes++;
    },
    /** `load`'s value for `key`, handed to `keep` unless a change was heard while it loaded. */
    read<T>(key: K, load: () => Promise<T>, keep: (value: T) => void): Promise<T> {
      const before = changes;
      const run = async () => {
        const value = await load();
        if (keeping && changes === before) keep(value);
        return value;
      };
      if (!keeping) return run();
      const under = reads.get(key);
      if (under && under.changes === before) return under.promise as Promise<T>;
      const promise = run();
      const entry = { changes: before, promise };
      reads.set(key, entry);
      const done = () => {
        if (reads.get(key) === entry) reads.delete(key);
      };
      promise.then(done, done);
      return promise;
    },
    setKeeping(next: boolean) {
      changes++;
      clear();
      keeping = next;
    },
    attach(next: Listening) {
      listening = next;
    },
    async stop() {
      await listening?.stop();
      listening = null;
      changes++;
      clear();
      keeping = false;
    },
  };
}

/**
 * Notes, for a page being rendered that may be kept, that it read `key` of `entries` and was
 * given the value `given` holds to be the kept entry's: the page may be kept while that entry is
 * still there and `good`. A value not kept (read while a change was heard) keeps the page from
 * being kept.
 */
function noteKeptRead<K, E>(
  entries: Map<K, E>,
  key: K,
  given: (entry: E) => boolean,
  good: (entry: E) => boolean,
): void {
  const kept = entries.get(key);
  readKept(kept && given(kept) ? () => entries.get(key) === kept && good(kept) : () => false);
}

/** What every cache kept correct by notifications shows of its hearing, and can be told of it. */
export type HeardCache = {
  /** Whether values are kept now (the notifications are heard). */
  readonly keeping: boolean;
  /** The changes heard so far: what was made from kept values before the last one may be out of date. */
  readonly changes: number;
  readonly size: number;
  setKeeping(keeping: boolean): void;
  attach(listening: Listening): void;
  stop(): Promise<void>;
  /**
   * Resolves once this server has heard every change committed before the call (a write's own
   * notifications), so the next request it answers reads nothing from before that write.
   */
  caughtUp(): Promise<void>;
};

/** A cache of `own` reads over `heard`, holding `size()` values, with the hearing parts every such cache has. */
function heardCache<Own extends object>(
  heard: ReturnType<typeof heardChanges>,
  size: () => number,
  own: Own,
): HeardCache & Own {
  const parts: HeardCache = {
    get keeping() {
      return heard.keeping;
    },
    get changes() {
      return heard.changes;
    },
    get size() {
      return size();
    },
    setKeeping: heard.setKeeping,
    attach: heard.attach,
    stop: heard.stop,
    // A cache that does not listen keeps nothing; listenFor says otherwise.
    caughtUp: () => Promise.resolve(),
  };
  return Object.assign(parts, own);
}

/** How long a cache keeps a value, how many it keeps at most, and its clock (tests set them). */
export type KeepingOptions = { now?: () => number; ttlMs?: number; maxEntries?: number };

/** A kept value, until when it may be used, and what it was kept for (what a change that drops it names). */
type KeptEntry<V, About> = { value: V; until: number; about: About };

/**
 * The values a cache kept correct by notifications keeps, and the hearing of those notifications.
 * `lasts` says whether a kept value is still good at a time, besides its time to live (a viewer:
 * while its session has not ended). Kept values are shared by every request, so they are frozen.
 */
export function keptReads<K, V, About>(
  options: KeepingOptions,
  defaults: { ttlMs: number; maxEntries?: number },
  lasts: (value: V, at: number) => boolean = () => true,
) {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? defaults.ttlMs;
  const max = options.maxEntries ?? defaults.maxEntries ?? Number.POSITIVE_INFINITY;
  const entries = new Map<K, KeptEntry<V, About>>();
  const heard = heardChanges<K>(() => entries.clear());
  const good = (entry: KeptEntry<V, About>) => {
    const at = now();
    return heard.keeping && entry.until > at && lasts(entry.value, at);
  };

  return {
    /**
     * The value kept under `key` while it is good, or `load`'s, kept with what `about` says it is
     * for unless a change was heard while it loaded or `about` says null (nothing to keep).
     */
    async read<T extends V>(key: K, load: () => Promise<T>, about: (value: T) => About | null): Promise<T> {
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
          const kept = about(value);
          if (kept === null) return;
          if (entries.size >= max) entries.delete(entries.keys().next().value!);
          entries.set(key, { value, until: at + ttl, about: kept });
        },
      );
      // A page rendered from this value may be kept while the value is (a change drops it).
      noteKeptRead(entries, key, (kept) => kept.value === value, good);
      return value;
    },
    /** Hears a change: drops the values kept for what `names` matches, or every value without it. */
    forget(names?: (about: About) => boolean) {
      heard.heard();
      if (!names) {
        entries.clear();
        return;
      }
      for (const [key, entry] of entries) if (names(entry.about)) entries.delete(key);
    },
    /** The cache of `own` reads over these values, with the hearing parts every such cache has. */
    cache<Own extends object>(own: Own): HeardCache & Own {
      return heardCache(heard, () => entries.size, own);
    },
  };
}

/** What of the database a cache that listens uses: its LISTEN, and on PostgreSQL a notification of its own. */
export type ListeningDatabase = Pick<DatabaseHandle, "listen" | "driver" | "executeSql">;

type Hearing = {
  readonly keeping: boolean;
  forget(payload: string): void;
  setKeeping(keeping: boolean): void;
  attach(listening: Listening): void;
  caughtUp(): Promise<void>;
};

/** The payloads a server sends itself to learn that it has heard everything before them. */
const CAUGHT_UP = "memberhall-caught-up:";
/** How long a server waits for its own notification before dropping all it keeps instead. */
const CAUGHT_UP_MS = 2_000;

/**
 * The cache, listening on `channel`: each notification is a change, and it keeps only while it
 * hears them ("*" and a payload that names nothing kept drop what they name).
 *
 * On PostgreSQL a notification arrives on the LISTEN connection a moment after its commit, so
 * a request that follows a write (the page a form's redirect shows) could come first.
 * `caughtUp` sends a notification of its own on the channel and waits to hear it: PostgreSQL
 * delivers a channel's notifications in the order their transactions committed, so every
 * change committed before it has then been heard. If it is not heard in time, everything kept
 * is dropped. PGlite hands its notifications to the listener before the query that caused them
 * returns: nothing to wait for.
 */
export function listenFor<C extends Hearing>(database: ListeningDatabase, channel: string, cache: C): C {
  const waiting = new Map<string, () => void>();
  cache.attach(
    database.listen(
      channel,
      (payload) => {
        // Another server's own notification changes nothing here.
        if (payload.startsWith(CAUGHT_UP)) return waiting.get(payload)?.();
        cache.forget(payload);
      },
      (listening) => cache.setKeeping(listening),
    ),
  );
  if (database.driver !== "postgres") return cache;
  cache.caughtUp = async () => {
    if (!cache.keeping) return;
    const token = CAUGHT_UP + randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      waiting.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), CAUGHT_UP_MS);
    });
    try {
      await database.executeSql("select pg_notify($1, $2)", [channel, token]);
      if (!(await heard)) cache.forget("*");
    } catch {
      cache.forget("*");
    } finally {
      clearTimeout(timer);
      waiting.delete(token);
    }
  };
  return cache;
}
