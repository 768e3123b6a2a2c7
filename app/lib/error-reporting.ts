import { storedState } from "./state-store";

/** spec §9: reports are sent 250 ms after the last error; a chunk reload at most once a minute. */
export const REPORT_DEBOUNCE_MS = 250;
/** Errors that keep coming faster than the debounce are still sent this often. */
export const REPORT_MAX_WAIT_MS = 2_000;
const MAX_BATCH = 20;
/** Under the server's 64 KiB body limit, with room for JSON escaping. */
export const MAX_BATCH_BYTES = 48 * 1024;
const MAX_MESSAGE = 2_000;
const MAX_STACK = 8_000;

export type ClientErrorReport = {
  time: string;
  href: string;
  message: string;
  stack: string | null;
  state: Record<string, unknown> | null;
};

let queue: ClientErrorReport[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let firstQueuedAt: number | null = null;

export function describeError(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message || error.name || "Error", stack: error.stack ?? null };
  if (typeof error === "string") return { message: error || "Unknown error", stack: null };
  try {
    return { message: JSON.stringify(error) || "Unknown error", stack: null };
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

const encoder = new TextEncoder();

/**
 * Takes from the front of the queue the reports that fit one request: at most 20 and
 * MAX_BATCH_BYTES of JSON, and always at least one (each report is capped well below it).
 */
export function takeBatch(pending: ClientErrorReport[]): ClientErrorReport[] {
  let bytes = 2;
  let count = 0;
  while (count < pending.length && count < MAX_BATCH) {
    const size = encoder.encode(JSON.stringify(pending[count])).length + 1;
    if (count > 0 && bytes + size > MAX_BATCH_BYTES) break;
    bytes += size;
    count += 1;
  }
  return pending.splice(0, count);
}

async function flush(): Promise<void> {
  timer = undefined;
  firstQueuedAt = null;
  const batch = takeBatch(queue);
  if (batch.length === 0) return;
  try {
    // The API client loads with the first report: no page needs it to render.
    const { api } = await import("./api-client");
    await api("/api/errors", { method: "POST", body: batch });
  } catch {
    // Reporting must never raise another error; the bar already told the member.
  }
  if (queue.length > 0 && timer === undefined) schedule(Date.now());
}

function schedule(now: number) {
  firstQueuedAt ??= now;
  clearTimeout(timer);
  const wait = Math.max(0, Math.min(REPORT_DEBOUNCE_MS, firstQueuedAt + REPORT_MAX_WAIT_MS - now));
  timer = setTimeout(() => void flush(), wait);
}

/**
 * Queues a report; the queue goes to POST /api/errors 250 ms after the last one, or at the
 * latest 2 s after the first one waiting, so a steady stream of errors is still reported.
 */
export function reportClientError(error: unknown, now = Date.now()): void {
  const { message, stack } = describeError(error);
  queue.push({
    time: new Date(now).toISOString(),
    href: window.location.href.slice(0, 2_000),
    message: message.slice(0, MAX_MESSAGE),
    stack: stack?.slice(0, MAX_STACK) ?? null,
    state: reportableState(),
  });
  if (queue.length > 100) queue = queue.slice(-100);
  schedule(now);
}

export { CHUNK_RELOAD_GUARD_MS, isChunkLoadError, reloadAfterChunkError } from "./chunk-reload";
