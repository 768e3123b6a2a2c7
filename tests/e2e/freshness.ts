/**
 * The shared server's login freshness (LOGIN_RECHECK_SECONDS): an hour, longer than the whole
 * run, so a session of the pool made before it is not rechecked on its own halfway through and
 * no test meets a recheck it did not ask for. The tests of the recheck move the page's clock.
 */
export const LOGIN_RECHECK_SECONDS = 3600;

/** A page rechecks 30 s before the freshness runs out (app/domain/freshness.ts). */
export const RECHECK_DUE_MS = (LOGIN_RECHECK_SECONDS - 30) * 1000;
