import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { causes, countries, countryCauses, coupons, plans, settings } from "~/db/schema";
import { getCauseCatalogue } from "~/services/causes.server";
import { listeningReferenceCache, type ReferenceCache } from "~/services/reference-cache.server";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { eventually } from "../helpers/eventually";

describe.each(drivers)("the reference cache on %s", (driver) => {
  let database: TestDatabase;
  let cache: ReferenceCache;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    cache = listeningReferenceCache(database);
    await eventually(() => cache.keeping, "listening");
  });

  afterAll(async () => {
    await cache.stop();
    await database.dispose();
  });

  beforeEach(() => cache.forget());

  const keep = async () => {
    await cache.read("creator-plans", async () => "kept");
    expect(cache.size).toBe(1);
  };

  it("keeps the cause catalogue until a cause changes, then reads the new one", async () => {
    await keep();
    await database.db.insert(causes).values({ code: "RC", label: "Reference", name: "Reference Cause" });
    await eventually(() => cache.size === 0, "forgetting after the new cause");
    const services = { db: database.db, logger: { warn() {}, info() {} } as never, reference: cache };
    const before = await getCauseCatalogue(services);
    expect(before.causes.RC!.name).toBe("Reference Cause");
    expect(await getCauseCatalogue(services)).toBe(before);
    await database.db.update(causes).set({ name: "A renamed cause" }).where(eq(causes.code, "RC"));
    await eventually(() => cache.size === 0, "forgetting the catalogue");
    const after = await getCauseCatalogue(services);
    expect(after.causes.RC!.name).toBe("A renamed cause");
  });

  it.each([
    [
      "a plan",
      (db: TestDatabase["db"]) =>
        db
          .update(plans)
          .set({ sort: 5 })
          .where(sql`true`),
    ],
    [
      "a country",
      (db: TestDatabase["db"]) => db.insert(countries).values({ code: "ZZ", name: "Zedland" }).onConflictDoNothing(),
    ],
    [
      "a country's causes",
      (db: TestDatabase["db"]) => db.delete(countryCauses).where(eq(countryCauses.countryCode, "ZZ")),
    ],
    [
      "a setting",
      (db: TestDatabase["db"]) =>
        db
          .insert(settings)
          .values({ key: "mnInviteLink", value: "https://example.org/invite" })
          .onConflictDoUpdate({ target: settings.key, set: { value: "https://example.org/invite" } }),
    ],
    [
      "a new coupon",
      (db: TestDatabase["db"]) =>
        db.insert(coupons).values({ id: "REFTEST", name: "Reference test", duration: "once", percentOff: "10" }),
    ],
    [
      "a coupon's name",
      (db: TestDatabase["db"]) => db.update(coupons).set({ name: "Renamed" }).where(eq(coupons.id, "REFTEST")),
    ],
  ] as const)("forgets what it kept when %s changes", async (_what, change) => {
    await keep();
    await change(database.db);
    await eventually(() => cache.size === 0, "forgetting");
  });

  it("keeps what it kept when a coupon is only redeemed", async () => {
    await keep();
    await database.db
      .insert(coupons)
      .values({ id: "REDEEMED", name: "Redeemed", duration: "once", percentOff: "10" })
      .onConflictDoNothing();
    await eventually(() => cache.size === 0, "forgetting the new coupon");
    await keep();
    await database.db
      .update(coupons)
      .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1`, lastRedeemedAt: new Date() })
      .where(eq(coupons.id, "REDEEMED"));
    // A notification, had one been sent, reaches the listener well within this.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cache.size).toBe(1);
  });
});
