import { describe, expect, it } from "vitest";
import { letterKey, mayMailAgain, mayResend, MAILING_STATES } from "./round-letters";

describe("a round's letters", () => {
  it("sends every try of one letter under one key, and a letter sent again after a refusal under the next", () => {
    const base = { entryId: "12-3", round: 2, slot: 9 };
    expect(letterKey({ ...base, attempt: 1 })).toBe("mailing:12-3:r2:s9");
    expect(letterKey({ ...base, attempt: 1 })).toBe(letterKey({ ...base, attempt: 1 }));
    expect(letterKey({ ...base, attempt: 2 })).toBe("mailing:12-3:r2:s9:a2");
    expect(letterKey({ ...base, slot: 10, attempt: 1 })).not.toBe(letterKey({ ...base, attempt: 1 }));
  });

  it("mails a second envelope under a key of its own, the first envelope's keys unchanged", () => {
    const base = { entryId: "12-3", round: 2, slot: 9 };
    expect(letterKey({ ...base, envelope: 1, attempt: 1 })).toBe("mailing:12-3:r2:s9");
    expect(letterKey({ ...base, envelope: 2, attempt: 1 })).toBe("mailing:12-3:r2:s9:e2");
    expect(letterKey({ ...base, envelope: 2, attempt: 3 })).toBe("mailing:12-3:r2:s9:e2:a3");
  });

  it("mails a respondent again only after an envelope that came to nothing, and only for another order", () => {
    const ended = { letterId: "ltr_4868c3b754655f90", orderId: "first" };
    const again = MAILING_STATES.filter((state) => mayMailAgain({ ...ended, state }, "second"));
    expect(again).toEqual(["returned_to_sender", "cancelled", "failed"]);
    expect(mayMailAgain({ ...ended, state: "cancelled" }, "first")).toBe(false);
    expect(mayMailAgain({ ...ended, state: "cancelled" }, null)).toBe(false);
    // Refused before the mail house made it: tried again under the same envelope instead.
    expect(mayMailAgain({ state: "failed", letterId: null, orderId: "first" }, "second")).toBe(false);
  });

  it("sends again only a letter the mail house refused without making it", () => {
    expect(mayResend({ state: "failed", letterId: null })).toBe(true);
    expect(mayResend({ state: "failed", letterId: "ltr_4868c3b754655f90" })).toBe(false);
    expect(mayResend({ state: "sending", letterId: null })).toBe(false);
    expect(mayResend({ state: "cancelled", letterId: "ltr_4868c3b754655f90" })).toBe(false);
  });
});
