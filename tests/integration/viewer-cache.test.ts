import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { plans, sessions, subscriptions, users } from "~/db/schema";
import { loadViewer, revokeSession } from "~/services/session.server";
import { listeningViewerCache, type ViewerCache } from "~/services/viewer-cache.server";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { eventually } from "../helpers/eventually";
import { createSession, createUser } from "../helpers/users";

describe.each(drivers)("the viewer cache on %s", (driver) => {
  let database: TestDatabase;
  let cache: ViewerCache;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    cache = listeningViewerCache(database);
    await eventually(() => cache.keeping, "listening");
  });

  afterAll(async () => {
    await cache.stop();
    await database.dispose();
  });

  // Each test starts with nothing kept: `cache.size` then counts its own session's viewer.
  beforeEach(() => cache.forget("*"));

  const counted = (sessionId: string) => {
    const calls = { n: 0 };
    const read = () =>
      cache.read(sessionId, () => {
        calls.n++;
        return loadViewer(database.db, sessionId);
      });
    return { calls, read };
  };

  it("keeps a viewer until the member's flags change, then reads the new ones", async () => {
    const user = await createUser(database.db);
    const session = await createSession(database.db, user.id);
    const { calls, read } = counted(session.id);
    expect((await read())!.user.nolCreator).toBe(false);
    await read();
    expect(calls.n).toBe(1);

    await database.db.update(users).set({ nolCreator: true }).where(eq(users.id, user.id));
    await eventually(() => cache.size === 0, "forgetting the changed member");
    expect((await read())!.user.nolCreator).toBe(true);
    expect(calls.n).toBe(2);
  });

  it("refuses a revoked session on the next read", async () => {
    const user = await createUser(database.db);
    const session = await createSession(database.db, user.id);
    const { read } = counted(session.id);
    expect(await read()).not.toBeNull();
    await revokeSession(database.db, session.id);
    await eventually(() => cache.size === 0, "forgetting the revoked session");
    expect(await read()).toBeNull();
  });

  it("reads again when the member's subscription changes, and not when a session is only seen again", async () => {
    const user = await createUser(database.db);
    const session = await createSession(database.db, user.id);
    const { calls, read } = counted(session.id);
    await read();
    await database.db.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, session.id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await read();
    expect(calls.n).toBe(1);

    await database.db
      .insert(plans)
      .values({ id: "viewer-test", title: "Viewer test", kind: "subscription", amountCents: 100, interval: "month" })
      .onConflictDoNothing();
    await database.db.insert(subscriptions).values({
      userId: user.id,
      planId: "viewer-test",
      status: "ACTIVE",
      provider: "sandbox",
      providerSubscriptionId: `sub_${user.id}`,
      currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    await eventually(() => cache.size === 0, "forgetting the member with a new subscription");
    expect((await read())!.subscription?.status).toBe("ACTIVE");
    expect(calls.n).toBe(2);
  });
});
