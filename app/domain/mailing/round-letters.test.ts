import { describe, expect, it } from "vitest";
import {
  letterKey,
  mayResend,
  roundDeliveredOn,
  roundMailedOn,
  roundTracking,
  type RoundLetter,
} from "./round-letters";

const letter = (slot: number, overrides: Partial<RoundLetter> = {}): RoundLetter => ({
  slot,
  state: "created",
  trackingNumber: `94071100000000000000${String(slot).padStart(2, "0")}`,
  mailedAt: null,
  deliveredAt: null,
  ...overrides,
});
const at = (text: string) => new Date(text);

describe("a round's letters", () => {
  it("sends every try of one letter under one key, and a letter sent again after a refusal under the next", () => {
    const base = { entryId: "12-3", round: 2, slot: 9 };
    expect(letterKey({ ...base, attempt: 1 })).toBe("mailing:12-3:r2:s9");
    expect(letterKey({ ...base, attempt: 1 })).toBe(letterKey({ ...base, attempt: 1 }));
    expect(letterKey({ ...base, attempt: 2 })).toBe("mailing:12-3:r2:s9:a2");
    expect(letterKey({ ...base, slot: 10, attempt: 1 })).not.toBe(letterKey({ ...base, attempt: 1 }));
  });

  it("keeps the tracking numbers of the letters on their way, by slot", () => {
    const letters = [
      letter(9),
      letter(1),
      letter(2, { state: "cancelled" }),
      letter(3, { state: "sending", trackingNumber: null }),
    ];
    expect(roundTracking(letters)).toEqual({ "1": letters[1]!.trackingNumber, "9": letters[0]!.trackingNumber });
  });

  it.each([
    ["no letter taken yet", [letter(1), letter(2)], null],
    [
      "the first day USPS took one",
      [letter(1, { mailedAt: at("2026-12-03T10:00:00Z") }), letter(2, { mailedAt: at("2026-12-02T23:00:00Z") })],
      "2026-12-02",
    ],
    [
      "a cancelled letter's day does not count",
      [
        letter(1, { state: "cancelled", mailedAt: at("2026-12-01T10:00:00Z") }),
        letter(2, { mailedAt: at("2026-12-04T10:00:00Z") }),
      ],
      "2026-12-04",
    ],
  ])("is mailed on %s", (_what, letters, day) => {
    expect(roundMailedOn(letters)).toBe(day);
  });

  it.each([
    [
      "one still in transit",
      [letter(1, { state: "delivered", deliveredAt: at("2026-12-05T10:00:00Z") }), letter(2, { state: "in_transit" })],
      null,
    ],
    [
      "one returned to sender",
      [
        letter(1, { state: "delivered", deliveredAt: at("2026-12-05T10:00:00Z") }),
        letter(2, { state: "returned_to_sender" }),
      ],
      null,
    ],
    [
      "all delivered: the last delivery",
      [
        letter(1, { state: "delivered", deliveredAt: at("2026-12-05T10:00:00Z") }),
        letter(2, { state: "delivered", deliveredAt: at("2026-12-07T10:00:00Z") }),
      ],
      "2026-12-07",
    ],
    [
      "all delivered but one cancelled",
      [letter(1, { state: "delivered", deliveredAt: at("2026-12-05T10:00:00Z") }), letter(2, { state: "cancelled" })],
      "2026-12-05",
    ],
    ["every letter cancelled", [letter(1, { state: "cancelled" })], null],
  ])("is delivered with %s", (_what, letters, day) => {
    expect(roundDeliveredOn(letters)).toBe(day);
  });

  it("sends again only a letter the mail house refused without making it", () => {
    expect(mayResend({ state: "failed", letterId: null })).toBe(true);
    expect(mayResend({ state: "failed", letterId: "ltr_4868c3b754655f90" })).toBe(false);
    expect(mayResend({ state: "sending", letterId: null })).toBe(false);
    expect(mayResend({ state: "cancelled", letterId: "ltr_4868c3b754655f90" })).toBe(false);
  });
});
