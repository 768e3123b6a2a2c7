import { describe, expect, it } from "vitest";
import { createViewerCache } from "./viewer-cache.server";
import type { Viewer } from "./session.server";

const viewerOf = (userId: string, agentId?: string): Viewer =>
  ({
    session: { id: `s-${userId}`, expiresAt: new Date(Date.now() + 86_400_000) },
    user: { id: userId, name: "Name" },
    member: { id: agentId ?? userId },
    agent: agentId ? { id: agentId } : null,
    subscription: null,
  }) as unknown as Viewer;

function counting(viewer: Viewer | null) {
  const calls = { n: 0 };
  return { calls, load: async () => (calls.n++, viewer) };
}

describe("the cache of recent viewers", () => {
  it("reads a session's viewer once while it is kept, and no request can change it for the others", async () => {
    const cache = createViewerCache();
    cache.setKeeping(true);
    const { calls, load } = counting(viewerOf("u1"));
    const first = await cache.read("s1", load);
    const second = await cache.read("s1", load);
    expect(calls.n).toBe(1);
    expect(second).toEqual(first);
    expect(() => {
      second!.user.name = "Changed by a request";
    }).toThrow(TypeError);
    expect((await cache.read("s1", load))!.user.name).toBe("Name");
  });

  it("keeps nothing while the changes are not heard, and drops what it kept when they stop being heard", async () => {
    const cache = createViewerCache();
    const { calls, load } = counting(viewerOf("u1"));
    await cache.read("s1", load);
    await cache.read("s1", load);
    expect(calls.n).toBe(2);
    cache.setKeeping(true);
    await cache.read("s1", load);
    expect(cache.size).toBe(1);
    cache.setKeeping(false);
    expect(cache.size).toBe(0);
    await cache.read("s1", load);
    expect(calls.n).toBe(4);
  });

  it("drops the viewers that name a changed member: as the user, or as the member an admin represents", async () => {
    const cache = createViewerCache();
    cache.setKeeping(true);
    await cache.read("own", async () => viewerOf("member"));
    await cache.read("agent", async () => viewerOf("admin", "member"));
    await cache.read("other", async () => viewerOf("someone"));
    cache.forget("member");
    expect(cache.size).toBe(1);
    cache.forget("*");
    expect(cache.size).toBe(0);
  });

  it("does not keep a viewer read while a change was heard: it may be from before the change", async () => {
    const cache = createViewerCache();
    cache.setKeeping(true);
    const { calls, load } = counting(viewerOf("u1"));
    await cache.read("s1", async () => {
      cache.forget("someone else");
      return load();
    });
    expect(cache.size).toBe(0);
    await cache.read("s1", load);
    await cache.read("s1", load);
    expect(calls.n).toBe(2);
  });

  it("reads again after its time, and at most its number of viewers are kept", async () => {
    let now = 1_000;
    const cache = createViewerCache({ now: () => now, ttlMs: 100, maxEntries: 2 });
    cache.setKeeping(true);
    const { calls, load } = counting(viewerOf("u1"));
    await cache.read("s1", load);
    now += 99;
    await cache.read("s1", load);
    expect(calls.n).toBe(1);
    now += 2;
    await cache.read("s1", load);
    expect(calls.n).toBe(2);
    await cache.read("s2", async () => viewerOf("u2"));
    await cache.read("s3", async () => viewerOf("u3"));
    expect(cache.size).toBe(2);
  });

  it("never keeps a visitor", async () => {
    const cache = createViewerCache();
    cache.setKeeping(true);
    expect(await cache.read("gone", async () => null)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it("reads a session's viewer once for the requests that arrive while it is being read", async () => {
    const cache = createViewerCache();
    cache.setKeeping(true);
    const { calls, load } = counting(viewerOf("u1"));
    const viewers = await Promise.all([cache.read("s1", load), cache.read("s1", load), cache.read("s2", load)]);
    expect(calls.n).toBe(2);
    expect(viewers[1]).toBe(viewers[0]);
  });
});
