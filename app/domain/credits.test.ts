import { describe, expect, it } from "vitest";
import { creditReasonText, creditReturnPath, creditsText, grantCreditsSchema, refundableOnDelete } from "./credits";

describe("notarize credits", () => {
  it.each([
    [0, "0 notarize credits"],
    [1, "1 notarize credit"],
    [3, "3 notarize credits"],
  ])("counts %i as %s", (count, text) => {
    expect(creditsText(count)).toBe(text);
  });

  it.each([
    ["purchase", false, "Bought"],
    ["grant", false, "Granted by an admin"],
    ["spend", false, "Notarize"],
    ["spend", true, "Notarize (given back)"],
    ["refund", false, "Given back"],
  ] as const)("names a %s (given back: %s) %s", (reason, refunded, text) => {
    expect(creditReasonText(reason, refunded)).toBe(text);
  });

  it.each([
    // "refunded if … the member deletes before the notary starts"
    ["draft", true],
    ["sent", true],
    ["in_progress", false],
    ["completed", false],
    ["expired", false],
    ["cancelled", false],
    [null, false],
  ])("a notarization deleted while %s gives its credit back: %s", (status, back) => {
    expect(refundableOnDelete(status)).toBe(back);
  });

  it.each([
    [{ count: "2", note: "Goodwill" }, true],
    [{ count: "0", note: "Goodwill" }, false],
    [{ count: "101", note: "Goodwill" }, false],
    [{ count: "1.5", note: "Goodwill" }, false],
    [{ count: "1e3", note: "Goodwill" }, false],
    [{ count: "2", note: "  " }, false],
    [{ count: "2" }, false],
  ])("a grant of %j is accepted: %s", (input, ok) => {
    expect(grantCreditsSchema.safeParse(input).success).toBe(ok);
  });

  it.each([
    ["/nol/creator/traffic-stop/notarize?version=V%201", "/nol/creator/traffic-stop/notarize?version=V%201"],
    ["/nol/creator/traffic-stop/notarize", "/nol/creator/traffic-stop/notarize"],
    ["/profile/billing", null],
    ["https://evil.example/nol/x/notarize", null],
    ["//evil.example/nol/x/notarize", null],
    ["/nol/x/notarize#top", null],
    [42, null],
    [undefined, null],
  ])("a credit bought from %j goes back to %j", (given, back) => {
    expect(creditReturnPath(given)).toBe(back);
  });
});
