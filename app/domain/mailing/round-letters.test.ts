import { describe, expect, it } from "vitest";
import { letterKey, mayResend } from "./round-letters";

describe("a round's letters", () => {
  it("sends every try of one letter under one key, and a letter sent again after a refusal under the next", () => {
    const base = { entryId: "12-3", round: 2, slot: 9 };
    expect(letterKey({ ...base, attempt: 1 })).toBe("mailing:12-3:r2:s9");
    expect(letterKey({ ...base, attempt: 1 })).toBe(letterKey({ ...base, attempt: 1 }));
    expect(letterKey({ ...base, attempt: 2 })).toBe("mailing:12-3:r2:s9:a2");
    expect(letterKey({ ...base, slot: 10, attempt: 1 })).not.toBe(letterKey({ ...base, attempt: 1 }));
  });

  it("sends again only a letter the mail house refused without making it", () => {
    expect(mayResend({ state: "failed", letterId: null })).toBe(true);
    expect(mayResend({ state: "failed", letterId: "ltr_4868c3b754655f90" })).toBe(false);
    expect(mayResend({ state: "sending", letterId: null })).toBe(false);
    expect(mayResend({ state: "cancelled", letterId: "ltr_4868c3b754655f90" })).toBe(false);
  });
});
