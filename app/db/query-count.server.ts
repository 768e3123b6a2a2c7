import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "drizzle-orm";

/**
 * The queries a piece of work runs, counted as drizzle sends them. With SERVER_TIMING=1 the
 * server counts each request's and names the count in the answer's Server-Timing header; the
 * bench prints it and the tests hold each page to its budget. Off, nothing is counted: the
 * storage that follows a request's promises has a cost of its own on every request.
 *
 * The same storage gathers, for a page that may be kept as rendered, what it read of the
 * server's caches: a check per kept value, true while that value is still the one kept
 * (docs/decisions/056-member-pages-kept.md).
 */
type Tally = { queries: number; kept: Array<() => boolean> | null };

const tallies = new AsyncLocalStorage<Tally>();
/**
 * The work being counted now. The storage follows every promise of the process, counted or not,
 * once it has been run: it is turned off again whenever no counted work is under way.
 */
let counting = 0;

async function counted<T>(tally: Tally, work: () => Promise<T>): Promise<T> {
  counting += 1;
  try {
    return await tallies.run(tally, work);
  } finally {
    counting -= 1;
    if (counting === 0) tallies.disable();
  }
}

/** drizzle's logger: adds one to the tally of the work under way, if any is being counted. */
export const queryTally: Logger = {
  logQuery() {
    const tally = tallies.getStore();
    if (tally) tally.queries += 1;
  },
};

/** Runs `work` and counts the queries it sends, its own and those of everything it awaits. */
export async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const tally: Tally = { queries: 0, kept: null };
  const result = await counted(tally, work);
  return { result, queries: tally.queries };
}

/**
 * Runs `work` as the render of a page that may be kept: counts its queries, and gathers a check
 * for each kept value it read (`readKept`). The page may be kept while every check holds.
 */
export async function renderKeepable<T>(
  work: () => Promise<T>,
): Promise<{ result: T; queries: number; kept: Array<() => boolean> }> {
  const tally: Tally = { queries: 0, kept: [] };
  const result = await counted(tally, work);
  return { result, queries: tally.queries, kept: tally.kept! };
}

/** Whether the work under way is the render of a page that may be kept: only then are owners' data read from a cache. */
export function keepableRender(): boolean {
  return tallies.getStore()?.kept != null;
}

/** Notes, for the page being rendered (if it may be kept), that it read a kept value: `stillKept` says whether that value still is. */
export function readKept(stillKept: () => boolean): void {
  tallies.getStore()?.kept?.push(stillKept);
}

/** The Server-Timing entry that names a request's query count. */
export const queriesTiming = (queries: number) => `db;desc="${queries} ${queries === 1 ? "query" : "queries"}"`;

/** The query count a Server-Timing header names, or null. */
export function queriesOf(serverTiming: string | null): number | null {
  const match = /\bdb;desc="(\d+) quer(?:y|ies)"/.exec(serverTiming ?? "");
  return match ? Number(match[1]) : null;
}
