import { describe, expect, it } from "vitest";
import { nextTurn, waitingForTurn } from "./turns.server";

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("work handed out by turns of the event loop", () => {
  it("runs two pieces a turn, in the order they came, and the loop turns between them", async () => {
    const order: string[] = [];
    const pieces = [1, 2, 3, 4, 5, 6].map((n) =>
      nextTurn().then(() => {
        if (n === 1) setTimeout(() => order.push("timer"), 0);
        busy(3);
        order.push(`piece ${n}`);
      }),
    );
    expect(waitingForTurn()).toBe(6);
    await Promise.all(pieces);
    expect(waitingForTurn()).toBe(0);
    // All six at once would have run before the timer's phase came round.
    expect(order).toEqual(["piece 1", "piece 2", "timer", "piece 3", "piece 4", "piece 5", "piece 6"]);
  });

  it("lets a piece through at the next turn when nothing waits", async () => {
    let ran = false;
    const piece = nextTurn().then(() => (ran = true));
    expect(ran).toBe(false);
    await piece;
    expect(ran).toBe(true);
  });
});
