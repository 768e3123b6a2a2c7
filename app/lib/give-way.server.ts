import { setImmediate } from "node:timers";

/**
 * Lets the event loop look at its sockets and timers before long work goes on: an immediate
 * runs after the loop's poll phase, where other requests are read and answered. A chain of
 * awaits on the embedded database never reaches that phase by itself, since its queries
 * resolve without any I/O (`node:timers`, so tests that fake the global timers still run).
 */
export function giveWay(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
