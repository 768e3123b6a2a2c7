import { describe, expect, it } from "vitest";
import {
  applyLetterEvent,
  cancelCheck,
  canMoveTo,
  isLost,
  LETTER_STATES,
  newTrack,
  trackOf,
  type LetterEvent,
  type LetterState,
} from "./tracking";

const at = (day: number, hour = 12) => new Date(Date.UTC(2026, 10, day, hour));
const event = (state: LetterState, day: number, reason?: string): LetterEvent => ({
  state,
  occurredAt: at(day),
  reason,
});

describe("a letter's moves", () => {
  it.each([
    ["created", "mailed", true],
    ["created", "in_transit", true],
    ["created", "delivered", true],
    ["created", "cancelled", true],
    ["created", "failed", true],
    ["mailed", "in_transit", true],
    ["mailed", "delivered", true],
    ["mailed", "returned_to_sender", true],
    ["in_transit", "delivered", true],
    ["in_transit", "returned_to_sender", true],
    ["mailed", "mailed", false],
    ["in_transit", "mailed", false],
    ["mailed", "cancelled", false],
    ["in_transit", "failed", false],
    ["delivered", "returned_to_sender", false],
    ["returned_to_sender", "delivered", false],
    ["cancelled", "mailed", false],
    ["failed", "created", false],
  ] as const)("%s → %s: %s", (from, to, allowed) => {
    expect(canMoveTo(from, to)).toBe(allowed);
  });

  it("lets no final state move anywhere", () => {
    for (const from of ["delivered", "returned_to_sender", "cancelled", "failed"] as const) {
      expect(LETTER_STATES.filter((to) => canMoveTo(from, to))).toEqual([]);
    }
  });
});

describe("applying the mail house's events", () => {
  it("moves through mailed, in transit and delivered, keeping each date", () => {
    const track = trackOf([event("mailed", 2), event("in_transit", 3), event("delivered", 5)]);
    expect(track).toEqual({
      state: "delivered",
      mailedAt: at(2),
      deliveredAt: at(5),
      returnedAt: null,
      reason: null,
      lastEventAt: at(5),
    });
  });

  it("changes nothing for a repeated event", () => {
    const mailed = applyLetterEvent(newTrack(), event("mailed", 2)).track;
    expect(applyLetterEvent(mailed, event("mailed", 2))).toEqual({ track: mailed, changed: false });
  });

  it("changes nothing for an older event that comes after a newer one", () => {
    const delivered = trackOf([event("mailed", 2), event("delivered", 5)]);
    expect(applyLetterEvent(delivered, event("in_transit", 3))).toEqual({ track: delivered, changed: false });
  });

  it("ends in the same track whatever order, and however often, the events come", () => {
    const events = [event("mailed", 2), event("in_transit", 3), event("returned_to_sender", 9, "Unclaimed")];
    const inOrder = trackOf(events);
    let shuffled = newTrack();
    for (const e of [events[2]!, events[0]!, events[2]!, events[1]!, events[0]!]) {
      shuffled = applyLetterEvent(shuffled, e).track;
    }
    expect(shuffled.state).toBe("returned_to_sender");
    expect(shuffled.reason).toBe("Unclaimed");
    expect(inOrder).toMatchObject({ state: "returned_to_sender", returnedAt: at(9), reason: "Unclaimed" });
  });

  it("takes the mailing date from the first event past 'mailed' when 'mailed' never came", () => {
    const track = trackOf([event("in_transit", 4), event("delivered", 6)]);
    expect(track.mailedAt).toEqual(at(4));
    // A late "mailed" is older than the state reached: it changes nothing, the date included.
    expect(applyLetterEvent(track, event("mailed", 2)).changed).toBe(false);
  });

  it("has no mailing date for a letter cancelled or failed before the mail", () => {
    expect(trackOf([event("cancelled", 1)])).toMatchObject({ state: "cancelled", mailedAt: null });
    expect(trackOf([event("failed", 1, "The file could not be printed")])).toMatchObject({
      state: "failed",
      mailedAt: null,
      reason: "The file could not be printed",
    });
  });

  it("refuses a cancellation once the letter is in the mail", () => {
    const mailed = trackOf([event("mailed", 2)]);
    expect(applyLetterEvent(mailed, event("cancelled", 3)).changed).toBe(false);
  });
});

describe("cancelling a letter", () => {
  const deadline = at(2, 9);

  it("is possible while it is created and before its deadline", () => {
    expect(cancelCheck({ state: "created", cancelUntil: deadline }, at(2, 8))).toEqual({ ok: true });
  });

  it.each([
    ["at its deadline", "created", deadline, at(2, 9), "past_deadline"],
    ["after its deadline", "created", deadline, at(3), "past_deadline"],
    ["with no deadline given", "created", null, at(1), "past_deadline"],
    ["once mailed", "mailed", deadline, at(2, 8), "in_the_mail"],
    ["once delivered", "delivered", deadline, at(2, 8), "in_the_mail"],
    ["once cancelled", "cancelled", deadline, at(2, 8), "ended"],
    ["once failed", "failed", deadline, at(2, 8), "ended"],
  ] as const)("is refused %s", (_when, state, cancelUntil, now, why) => {
    expect(cancelCheck({ state, cancelUntil }, now)).toEqual({ ok: false, why });
  });
});

describe("a lost letter", () => {
  const sendDate = at(2);

  it("is one on its way with no event for the days given", () => {
    const mailed = { state: "mailed" as const, lastEventAt: at(3), sendDate };
    expect(isLost(mailed, at(12), 10)).toBe(false);
    expect(isLost(mailed, at(13), 10)).toBe(true);
  });

  it("counts from the send date when no event came at all", () => {
    const created = { state: "created" as const, lastEventAt: null, sendDate };
    expect(isLost(created, at(11, 11), 10)).toBe(false);
    expect(isLost(created, at(12), 10)).toBe(true);
  });

  it("is never one that ended", () => {
    for (const state of ["delivered", "returned_to_sender", "cancelled", "failed"] as const) {
      expect(isLost({ state, lastEventAt: at(3), sendDate }, at(30), 10)).toBe(false);
    }
  });
});
