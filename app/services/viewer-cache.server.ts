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
 * The viewers of recent sessions, kept for a short while so that most signed-in requests read
 * no database. Any write that changes a viewer (a session logged out or revoked, agent mode, a
 * member's flags, name or e-mail, a subscription, a plan's features) makes the database notify
 * every server (migration 0007's triggers on `users`, `sessions`, `subscriptions` and `plans`),
 * and each drops the viewers that name that member. While a server cannot hear the
 * notifications (before its LISTEN, or after the connection is lost) it keeps nothing. A kept
 * viewer is shared by the requests that read it, so every viewer is frozen.
 * Why it is shaped so: docs/decisions/031-viewer-cache.md.
 */

export const VIEWER_CHANNEL = "memberhall_viewers";
const TTL_MS = 30_000;
const MAX_ENTRIES = 5_000;

/** What the cache reads of a viewer (session.server.ts's Viewer): its session's end and the members it names. */
export type CachedViewer = {
  session: { expiresAt: Date };
  user: { id: string };
  member: { id: string };
  agent: { id: string } | null;
};

type Entry = { viewer: CachedViewer; until: number; members: string[] };

export type ViewerCache = Omit<HeardCache, "setKeeping" | "attach"> & {
  /** The session's viewer: the one kept, or the loader's, kept unless a change was heard while it loaded. */
  read<V extends CachedViewer>(sessionId: string, load: () => Promise<V | null>): Promise<V | null>;
  /** Drops the viewers that name the member ("*": every viewer). */
  forget(memberId: string): void;
};

export function createViewerCache(
  options: { now?: () => number; ttlMs?: number; maxEntries?: number } = {},
): ViewerCache & HeardCache {
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? TTL_MS;
  const max = options.maxEntries ?? MAX_ENTRIES;
  const entries = new Map<string, Entry>();
  const heard = heardChanges<string>(() => entries.clear());
  const good = (entry: Entry) => {
    const at = now();
    return heard.keeping && entry.until > at && entry.viewer.session.expiresAt.getTime() > at;
  };

  const forget = (memberId: string) => {
    heard.heard();
    if (memberId === "*") {
      entries.clear();
      return;
    }
    for (const [id, entry] of entries) if (entry.members.includes(memberId)) entries.delete(id);
  };

  return heardCache<Pick<ViewerCache, "read" | "forget">>(heard, () => entries.size, {
    async read<V extends CachedViewer>(sessionId: string, load: () => Promise<V | null>) {
      const entry = entries.get(sessionId);
      if (entry && good(entry)) {
        noteKeptRead(entries, sessionId, () => true, good);
        return entry.viewer as V;
      }
      if (entry) entries.delete(sessionId);
      const at = now();
      const viewer = await heard.read(
        sessionId,
        async () => deepFreeze(await load()),
        (viewer) => {
          if (!viewer) return;
          if (entries.size >= max) entries.delete(entries.keys().next().value!);
          const members = [viewer.user.id, viewer.member.id, ...(viewer.agent ? [viewer.agent.id] : [])];
          entries.set(sessionId, { viewer, until: at + ttl, members });
        },
      );
      // A page rendered for this viewer may be kept while the viewer is (a change drops it).
      noteKeptRead(entries, sessionId, (kept) => kept.viewer === viewer, good);
      return viewer;
    },
    forget,
  });
}

/** The cache of a server, listening to the database's notifications of changed viewers. */
export function listeningViewerCache(database: ListeningDatabase): ViewerCache {
  return listenFor(database, VIEWER_CHANNEL, createViewerCache());
}
