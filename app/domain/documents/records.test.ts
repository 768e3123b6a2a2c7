import { describe, expect, it } from "vitest";
import { entryTimes, exhibitReference, noticeRoundsOf } from "./records";

describe("the notices an entry stands for (spec §3 'Notice')", () => {
  it.each([
    ["NoLCreator2", [true], null, [1]],
    ["NoLCreator2", [true, true, true], null, [1, 2, 3]],
    ["NoLCreator2", [true, false, true], null, [1, 3]],
    ["NoLCreator2", [], null, []],
    ["NoLBilling", [], 1, [4]],
    ["NoLBilling", [], 3, [6]],
    ["NoLProfileBilling", [true], null, []],
  ] as const)("a %s entry with tracking %j and true bill %s holds rounds %j", (form, tracking, tbValue, rounds) => {
    expect(noticeRoundsOf({ form, nolTracking: [...tracking], tbValue })).toEqual(rounds);
  });

  it("takes the hosted form's own dates when the entry came from one, else when it was stored", () => {
    const stored = { createdAt: new Date("2026-01-01T00:00:00Z"), updatedAt: new Date("2026-01-02T00:00:00Z") };
    expect(entryTimes({ ...stored, data: {} })).toEqual({ created: stored.createdAt, updated: stored.updatedAt });
    expect(
      entryTimes({
        ...stored,
        data: { Entry: { DateCreated: "2026-05-01T10:00:00Z", DateUpdated: "2026-05-02T10:00:00Z" } },
      }),
    ).toEqual({ created: new Date("2026-05-01T10:00:00Z"), updated: new Date("2026-05-02T10:00:00Z") });
    expect(entryTimes({ ...stored, data: { Entry: { DateCreated: "not a date" } } }).created).toEqual(stored.createdAt);
  });

  it("gives each claim a reference of its cause and number", () => {
    expect(exhibitReference("TS", 42)).toBe("TS-000042");
  });
});
