import { describe, expect, it } from "vitest";
import { createReferenceCache } from "./reference-cache.server";

function counting<T>(value: () => T) {
  const calls = { n: 0 };
  return { calls, load: async () => (calls.n++, value()) };
}

describe("the cache of reference data", () => {
  it("reads a value once while it is kept, and every request shares it frozen", async () => {
    const cache = createReferenceCache();
    cache.setKeeping(true);
    const { calls, load } = counting(() => ({ plans: [{ id: "monthly", title: "Monthly" }] }));
    const first = await cache.read("creator-plans", load);
    const second = await cache.read("creator-plans", load);
    expect(calls.n).toBe(1);
    expect(second).toBe(first);
    expect(() => {
      second.plans[0]!.title = "Changed by a request";
    }).toThrow(TypeError);
    expect(() => second.plans.push({ id: "x", title: "x" })).toThrow(TypeError);
  });

  it("keeps nothing while the changes are not heard, and drops what it kept when they stop being heard", async () => {
    const cache = createReferenceCache();
    const { calls, load } = counting(() => ["a"]);
    await cache.read("cause-catalogue", load);
    await cache.read("cause-catalogue", load);
    expect(calls.n).toBe(2);
    cache.setKeeping(true);
    await cache.read("cause-catalogue", load);
    await cache.read("member-list-choices", load);
    expect(cache.size).toBe(2);
    cache.setKeeping(false);
    expect(cache.size).toBe(0);
    await cache.read("cause-catalogue", load);
    expect(calls.n).toBe(5);
  });

  it("drops everything on a change, and does not keep a value read while a change was heard", async () => {
    const cache = createReferenceCache();
    cache.setKeeping(true);
    await cache.read("cause-catalogue", async () => "catalogue");
    await cache.read("creator-plans", async () => "plans");
    cache.forget();
    expect(cache.size).toBe(0);

    let release!: () => void;
    const reading = cache.read(
      "cause-catalogue",
      () => new Promise<string>((resolve) => (release = () => resolve("old"))),
    );
    cache.forget();
    release();
    expect(await reading).toBe("old");
    expect(cache.size).toBe(0);
    expect(await cache.read("cause-catalogue", async () => "new")).toBe("new");
    expect(cache.size).toBe(1);
  });

  it("reads again after its time", async () => {
    let now = 1_000;
    const cache = createReferenceCache({ now: () => now, ttlMs: 100 });
    cache.setKeeping(true);
    const { calls, load } = counting(() => 1);
    await cache.read("creator-plans", load);
    now += 99;
    await cache.read("creator-plans", load);
    expect(calls.n).toBe(1);
    now += 2;
    await cache.read("creator-plans", load);
    expect(calls.n).toBe(2);
  });

  it("makes one read for the requests that arrive while it is under way, but none joins a read begun before a change", async () => {
    const cache = createReferenceCache();
    cache.setKeeping(true);
    const calls = { n: 0 };
    const releases: Array<() => void> = [];
    const load = () =>
      new Promise<number>((resolve) => {
        const n = ++calls.n;
        releases.push(() => resolve(n));
      });
    const together = [cache.read("creator-plans", load), cache.read("creator-plans", load)];
    expect(calls.n).toBe(1);
    cache.forget();
    const afterChange = cache.read("creator-plans", load);
    expect(calls.n).toBe(2);
    for (const release of releases) release();
    expect(await Promise.all(together)).toEqual([1, 1]);
    expect(await afterChange).toBe(2);

    const unheard = createReferenceCache();
    const { calls: each, load: loadEach } = counting(() => 1);
    await Promise.all([unheard.read("creator-plans", loadEach), unheard.read("creator-plans", loadEach)]);
    expect(each.n).toBe(2);
  });
});
