import { keptReads, listenFor } from "./heard-changes.server";
import type { HeardCache, KeepingOptions, ListeningDatabase } from "./heard-changes.server";

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

export type ViewerCache = Omit<HeardCache, "setKeeping" | "attach"> & {
  /** The session's viewer: the one kept, or the loader's, kept unless a change was heard while it loaded. */
  read<V extends CachedViewer>(sessionId: string, load: () => Promise<V | null>): Promise<V | null>;
  /** Drops the viewers that name the member ("*": every viewer). */
  forget(memberId: string): void;
};

/** The members a viewer names: a change to any of them drops it. */
const membersOf = (viewer: CachedViewer) => [
  viewer.user.id,
  viewer.member.id,
  ...(viewer.agent ? [viewer.agent.id] : []),
];

export function createViewerCache(options: KeepingOptions = {}): ViewerCache & HeardCache {
  const kept = keptReads<string, CachedViewer | null, string[]>(
    options,
    { ttlMs: TTL_MS, maxEntries: MAX_ENTRIES },
    (viewer, at) => viewer !== null && viewer.session.expiresAt.getTime() > at,
  );
  return kept.cache<Pick<ViewerCache, "read" | "forget">>({
    read<V extends CachedViewer>(sessionId: string, load: () => Promise<V | null>) {
      return kept.read(sessionId, load, (viewer) => viewer && membersOf(viewer));
    },
    forget(memberId: string) {
      kept.forget(memberId === "*" ? undefined : (members) => members.includes(memberId));
    },
  });
}

/** The cache of a server, listening to the database's notifications of changed viewers. */
export function listeningViewerCache(database: ListeningDatabase): ViewerCache {
  return listenFor(database, VIEWER_CHANNEL, createViewerCache());
}
