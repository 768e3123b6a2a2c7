import type { DatabaseHandle, Listening } from "~/db/client.server";

/**
 * What a cache kept correct by the database's notifications has of them: whether it keeps
 * (only while the notifications are heard: whatever it kept may have missed a change while
 * they were not), the count of the changes heard (a value read while one was heard may predate
 * it, and is not kept), and its LISTEN. `clear` drops everything the cache keeps.
 */
export function heardChanges(clear: () => void) {
  let keeping = false;
  let changes = 0;
  let listening: Listening | null = null;
  return {
    get keeping() {
      return keeping;
    },
    get changes() {
      return changes;
    },
    heard() {
      changes++;
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
 * The reads under way, by key. While values are kept, a request that finds its key being read
 * since the last change heard waits for that read instead of starting its own: the fifty
 * requests that arrive when a kept value runs out make one read, not fifty. A read begun
 * before a change was heard is never joined.
 */
export function readsUnderWay<K>() {
  const reads = new Map<K, { changes: number; promise: Promise<unknown> }>();
  return {
    join<T>(key: K, changes: number, read: () => Promise<T>): Promise<T> {
      const under = reads.get(key);
      if (under && under.changes === changes) return under.promise as Promise<T>;
      const promise = read();
      const entry = { changes, promise };
      reads.set(key, entry);
      const done = () => {
        if (reads.get(key) === entry) reads.delete(key);
      };
      promise.then(done, done);
      return promise;
    },
  };
}

type Hearing = {
  forget(payload: string): void;
  setKeeping(keeping: boolean): void;
  attach(listening: Listening): void;
};

/** The cache, listening on `channel`: each notification is a change, and it keeps only while it hears them. */
export function listenFor<C extends Hearing>(database: Pick<DatabaseHandle, "listen">, channel: string, cache: C): C {
  cache.attach(
    database.listen(
      channel,
      (payload) => cache.forget(payload),
      (listening) => cache.setKeeping(listening),
    ),
  );
  return cache;
}
