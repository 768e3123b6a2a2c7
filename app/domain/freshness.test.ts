import { describe, expect, it } from "vitest";
import { isRecheckDue, recheckDueAt, singleFlight } from "./freshness";

const at = (iso: string) => Date.parse(iso);

describe("login freshness (spec §4)", () => {
  const base = { login_at_checked: "2026-01-01T00:00:00Z", login_recheck: 300, sub_checked: null, sub_recheck: 3600 };

  it("is due 30 s before the login check time plus login_recheck", () => {
    expect(recheckDueAt(base)).toBe(at("2026-01-01T00:04:30Z"));
    expect(isRecheckDue(base, at("2026-01-01T00:04:29Z"))).toBe(false);
    expect(isRecheckDue(base, at("2026-01-01T00:04:30Z"))).toBe(true);
  });

  it("uses the sub check time plus sub_recheck when that is sooner", () => {
    const state = { ...base, sub_checked: "2025-12-31T23:02:00Z", sub_recheck: 3600 };
    expect(recheckDueAt(state)).toBe(at("2026-01-01T00:01:30Z"));
  });

  it("keeps the login clock when the sub clock is later", () => {
    const state = { ...base, sub_checked: "2026-01-01T00:00:00Z" };
    expect(recheckDueAt(state)).toBe(at("2026-01-01T00:04:30Z"));
  });
});

describe("singleFlight", () => {
  it("'Only one recheck runs at a time': callers during a run share it, a later call runs again", async () => {
    let runs = 0;
    let release!: () => void;
    const recheck = singleFlight(async () => {
      runs += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return runs;
    });
    const first = recheck();
    const second = recheck();
    expect(runs).toBe(1);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    const third = recheck();
    release();
    expect(await third).toBe(2);
  });
});
