import { describe, expect, it } from "vitest";
import { nextTurn, waitingForTurn } from "./turns.server";

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("work handed out by turns of the event loop", () => {
  it("runs eight pieces a turn, in the order they came, and the loop turns between them", async () => {
    const order: string[] = [];
    const numbers = Array.from({ length: 20 }, (_, i) => i + 1);
    const pieces = numbers.map((n) =>
      nextTurn().then(() => {
        if (n === 1) setTimeout(() => order.push("timer"), 0);
        busy(1);
        order.push(`piece ${n}`);
      }),
    );
    expect(waitingForTurn()).toBe(20);
    await Promise.all(pieces);
    expect(waitingForTurn()).toBe(0);
    // All twenty at once would have run before the timer's phase came round.
    const pieceNames = numbers.map((n) => `piece ${n}`);
    expect(order).toEqual([...pieceNames.slice(0, 8), "timer", ...pieceNames.slice(8)]);
  });

  it("lets a piece through at the next turn when nothing waits", async () => {
    let ran = false;
    const piece = nextTurn().then(() => (ran = true));
    expect(ran).toBe(false);
    await piece;
    expect(ran).toBe(true);
  });
});
