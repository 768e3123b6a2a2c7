/** spec §9: a chunk reload at most once a minute. Small, and loaded with every page, so that it works when other code cannot load. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;

const CHUNK_ERROR =
  /Loading chunk|ChunkLoadError|Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

export function isChunkLoadError(message: string): boolean {
  return CHUNK_ERROR.test(message);
}

/**
 * After a deploy, an open page may ask for code that is gone: reload to get the new build,
 * but at most once a minute so a real outage cannot loop.
 */
export function reloadAfterChunkError(now = Date.now()): boolean {
  let last = 0;
  try {
    last = Number(window.sessionStorage.getItem("chunkReloadAt") ?? 0);
    if (now - last < CHUNK_RELOAD_GUARD_MS) return false;
    window.sessionStorage.setItem("chunkReloadAt", String(now));
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}
