import { setImmediate } from "node:timers";

/**
 * A request's large pieces of work (its run through the router, its page's render) handed out a
 * few per turn of the event loop. A Node server takes one new connection per turn (libuv since
 * 1.45, "don't accept() connections in a loop"), and a turn runs everything that became ready
 * during it: with fifty connections under way one turn rendered up to fifty pages, so the last
 * connection of a burst waited through fifty such turns, seconds, before its first request was
 * read. Waiting here, at most PER_TURN pieces run per turn and the server looks at its sockets,
 * the new connections among them, between them; a request already under way waits its place in
 * line as it did before (docs/decisions/041-turns.md). Eight, not fewer: each turn costs the
 * server a round of its timers and sockets, and at two a turn a rendered page cost half as much
 * again (decision 041's consequences).
 */
const PER_TURN = 8;

const waiting: Array<() => void> = [];
let scheduled = false;

function runSome() {
  scheduled = false;
  for (let run = 0; run < PER_TURN && waiting.length > 0; run++) waiting.shift()!();
  if (waiting.length > 0) schedule();
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  // An immediate queued by an immediate runs in the next turn, after the sockets are looked at.
  setImmediate(runSome);
}

/** Resolves when it is this piece of work's turn: right after the sockets are next looked at when nothing waits. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/** How many pieces of work wait for their turn now. */
export const waitingForTurn = () => waiting.length;
