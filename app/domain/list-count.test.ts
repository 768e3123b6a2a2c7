import { describe, expect, it } from "vitest";
import { countWords, matchLine } from "./list-count";

describe("a count in words", () => {
  it("says a counted number as it is, an estimate to two figures, and past the cap alone 'more than'", () => {
    expect(countWords({ n: 1_234, capped: false })).toBe("1,234");
    expect(countWords({ n: 44_873, capped: true })).toBe("about 45,000");
    expect(countWords({ n: 1_001, capped: true })).toBe("more than 1,000");
    expect(countWords({ n: 21, capped: true }, 20)).toBe("more than 20");
    expect(matchLine({ n: 1, capped: false }, "member", "members")).toBe("1 member matches");
    expect(matchLine({ n: 0, capped: false }, "member", "members")).toBe("0 members match");
    expect(matchLine({ n: 10_007, capped: true }, "member", "members")).toBe("About 10,000 members match");
    expect(matchLine({ n: 1_001, capped: true }, "record", "records")).toBe("More than 1,000 records match");
  });
});
