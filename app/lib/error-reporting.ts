import { apiFetch, storedState } from "./state-client";

/** spec §9: reports are sent 250 ms after the last error; a chunk reload at most once a minute. */
export const REPORT_DEBOUNCE_MS = 250;
export const CHUNK_RELOAD_GUARD_MS = 60_000;
const MAX_BATCH = 20;

export type ClientErrorReport = {
  time: string;
  href: string;
  message: string;
  stack: string | null;
  state: Record<string, unknown> | null;
};

let queue: ClientErrorReport[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

export function describeError(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack ?? null };
  if (typeof error === "string") return { message: error, stack: null };
  try {
    return { message: JSON.stringify(error) ?? "Unknown error", stack: null };
  } catch {
    return { message: "Unknown error", stack: null };
  }
}

/** The member's state without the session's own identifiers. */
function reportableState(): Record<string, unknown> | null {
  const core = storedState()?.core;
  if (!core) return null;
  const { sid: _sid, dpk: _dpk, ...rest } = core;
  return rest;
}

async function flush(): Promise<void> {
  const batch = queue.splice(0, MAX_BATCH);
  if (batch.length === 0) return;
  try {
    await apiFetch("/api/errors", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(batch),
    });
  } catch {
    // Reporting must never raise another error; the bar already told the member.
  }
  if (queue.length > 0) timer = setTimeout(flush, REPORT_DEBOUNCE_MS);
}

/** Queues a report; the queue goes to POST /api/errors 250 ms after the last one. */
export function reportClientError(error: unknown): void {
  const { message, stack } = describeError(error);
  queue.push({
    time: new Date().toISOString(),
    href: window.location.href.slice(0, 2_000),
    message: message.slice(0, 2_000),
    stack: stack?.slice(0, 16_000) ?? null,
    state: reportableState(),
  });
  if (queue.length > 100) queue = queue.slice(-100);
  clearTimeout(timer);
  timer = setTimeout(flush, REPORT_DEBOUNCE_MS);
}

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
