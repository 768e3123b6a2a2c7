import { describe, expect, it } from "vitest";
import { byteSize, formatCents, formatDate, formatDateTime, formatMoney } from "./format";

describe("formatMoney", () => {
  it("shows cents in the plan's currency", () => {
    expect(formatMoney(1250, "usd")).toBe("$12.50");
    expect(formatMoney(0, "EUR")).toBe("€0.00");
    expect(formatMoney(1_000_000, "USD")).toBe("$10,000.00");
  });
});

describe("formatCents", () => {
  it("is cents/100 with 2 decimals (spec §9)", () => {
    expect(formatCents(500)).toBe("5.00");
    expect(formatCents(1999)).toBe("19.99");
  });
});

describe("dates", () => {
  const at = "2026-11-23T23:30:00Z";
  it("shows the date in UTC unless a zone is given", () => {
    expect(formatDate(at)).toBe("Nov 23, 2026");
    expect(formatDate(at, "Asia/Tokyo")).toBe("Nov 24, 2026");
  });
  it("shows date and time with the zone's name", () => {
    expect(formatDateTime(at)).toBe("Nov 23, 2026, 11:30 PM UTC");
  });
});

describe("byteSize", () => {
  it.each([
    [512, "512 B"],
    [2048, "2.0 KB"],
    [5 * 1024 * 1024, "5.0 MB"],
    [123 * 1024 * 1024, "123 MB"],
  ])("writes %i bytes as %s", (bytes, words) => {
    expect(byteSize(bytes)).toBe(words);
  });
});
