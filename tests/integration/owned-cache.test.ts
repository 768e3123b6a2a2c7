import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countQueries, renderKeepable } from "~/db/query-count.server";
import { causes, nolEntries, nolVersionFeatures, users } from "~/db/schema";
import { entriesOf } from "~/services/nol/entries.server";
import { listeningOwnedCache, pageServices, type OwnedCache } from "~/services/owned-cache.server";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { eventually } from "../helpers/eventually";
import { createUser } from "../helpers/users";

describe.each(drivers)("the owners' data kept for pages, on %s", (driver) => {
  let database: TestDatabase;
  let cache: OwnedCache;
  let owner: { id: string };
  let other: { id: string };
  let entry = 0;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    cache = listeningOwnedCache(database);
    await eventually(() => cache.keeping, "listening");
    await database.db.insert(causes).values({ code: "OC", label: "Owned", name: "Owned Cause" }).onConflictDoNothing();
    owner = await createUser(database.db);
    other = await createUser(database.db);
  });

  afterAll(async () => {
    await cache.stop();
    await database.dispose();
  });

  beforeEach(async () => {
    cache.forget("*");
    await cache.caughtUp();
  });

  const addEntry = (userId: string) => {
    entry += 1;
    return database.db.insert(nolEntries).values({
      id: `194-${9000 + entry}`,
      form: "NoLCreator2",
      formId: 194,
      entryNumber: 9000 + entry,
      userId,
      causeCode: "OC",
      descriptiveVersion: `v${entry}`,
      round: 1,
      editHash: String(entry).padStart(32, "e"),
      viewHash: String(entry).padStart(32, "v"),
    });
  };

  /** An owner's entries as a kept page reads them, with whether the read is kept. */
  const pageRead = async (userId: string) => {
    const { result, queries, kept } = await renderKeepable(() =>
      cache.read(`entries:${userId}:OC`, `entries:${userId}`, () => entriesOf(database.db, userId, "OC")),
    );
    return { rows: result, queries, stillKept: () => kept.every((read) => read()) };
  };

  it("keeps an owner's entries for a page until that owner's entries change, and only theirs", async () => {
    await addEntry(owner.id);
    await cache.caughtUp();
    const first = await pageRead(owner.id);
    expect(first.rows).toHaveLength(1);
    expect(first.stillKept()).toBe(true);
    const again = await pageRead(owner.id);
    expect(again.rows).toBe(first.rows);
    expect(again.queries).toBe(0);
    const others = await pageRead(other.id);

    await addEntry(owner.id);
    await cache.caughtUp();
    expect(first.stillKept()).toBe(false);
    expect(others.stillKept()).toBe(true);
    const after = await pageRead(owner.id);
    expect(after.rows).toHaveLength(2);

    await database.db.update(nolEntries).set({ round: 2 }).where(eq(nolEntries.userId, owner.id));
    await cache.caughtUp();
    expect(after.stillKept()).toBe(false);
    const updated = await pageRead(owner.id);
    expect(updated.rows.every((row) => row.round === 2)).toBe(true);

    await database.db.delete(nolEntries).where(eq(nolEntries.userId, owner.id));
    await cache.caughtUp();
    expect(updated.stillKept()).toBe(false);
    expect((await pageRead(owner.id)).rows).toHaveLength(0);
    expect(others.stillKept()).toBe(true);
  });

  it("drops an owner's kept entries when their versions' features change", async () => {
    const before = await pageRead(owner.id);
    expect(before.stillKept()).toBe(true);
    await database.db
      .insert(nolVersionFeatures)
      .values({ userId: owner.id, causeCode: "OC", descriptiveVersion: "v1", features: { AllowNotarizeOnline: true } });
    await cache.caughtUp();
    expect(before.stillKept()).toBe(false);
  });

  it("drops what it keeps of the members when any member row changes, a new one or one only seen again", async () => {
    const list = () =>
      renderKeepable(() => cache.read("members:all", "users", async () => database.db.select().from(users)));
    const kept = async () => (await list()).kept.every((read) => read());
    await list();
    expect(await kept()).toBe(true);
    await createUser(database.db);
    await cache.caughtUp();
    const fresh = await list();
    expect(fresh.queries).toBe(1);
    await list();
    await database.db.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, other.id));
    await cache.caughtUp();
    expect((await list()).queries).toBe(1);
    expect(await kept()).toBe(true);
  });

  it("reads the database for anything but a page that may be kept, and keeps nothing of it", async () => {
    await cache.read(`entries:${other.id}:OC`, `entries:${other.id}`, () => entriesOf(database.db, other.id, "OC"));
    expect(cache.size).toBe(0);
  });

  it("is read from by a page that may be kept on its first request too, through the page's services", async () => {
    const { owned } = pageServices({ owned: cache });
    const read = () =>
      countQueries(() =>
        owned.read(`entries:${owner.id}:OC`, `entries:${owner.id}`, () => entriesOf(database.db, owner.id, "OC")),
      );
    expect((await read()).queries).toBe(1);
    expect(cache.size).toBe(1);
    // No render to be kept is under way: the cache answers all the same.
    const again = await read();
    expect(again.queries).toBe(0);
    expect(again.result).toEqual((await pageRead(owner.id)).rows);
    // Its other parts are the cache's own.
    expect(owned.keeping).toBe(true);
    expect(owned.size).toBe(1);
  });

  it("has heard a write's change by the time it says it caught up", async () => {
    for (let round = 0; round < 5; round += 1) {
      const before = await pageRead(other.id);
      expect(before.stillKept()).toBe(true);
      await addEntry(other.id);
      await cache.caughtUp();
      expect(before.stillKept()).toBe(false);
    }
  });
});
