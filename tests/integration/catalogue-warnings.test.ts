import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { causes } from "~/db/schema";
import { loader as causesApiLoader } from "~/routes/api.config.causes";
import { causeCatalogueAdmin } from "~/services/cause-admin.server";
import { dashboard } from "~/services/dashboard.server";
import { causeChoices } from "~/services/nol/access.server";
import { loaderArgs, testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";

/** Spec §9 "Missing causes": logged where the catalogue is read, once while it is empty, not per request. */
describe.each(drivers)("a catalogue without causes (%s)", (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const warnings = (warn: ReturnType<typeof vi.spyOn>) =>
    warn.mock.calls.filter((call: unknown[]) => call.includes("Missing causes")).length;

  it("is logged once by a server, whichever reads it first and however often it is read, and again once it empties anew", async () => {
    const context = testContext(database);
    const services: AppServices = context.app!;
    const warn = vi.spyOn(services.logger, "warn");
    const owner = { countryCode: "US", nolCreator: true, nolTester: false };

    // The API and a NoL page read it; the admins' pages too.
    for (let n = 0; n < 3; n++) {
      const response = await causesApiLoader(loaderArgs(context, "/api/config/causes"));
      expect(Object.keys((await response.json()).causes)).toEqual([]);
    }
    expect(warnings(warn)).toBe(1);
    expect((await causeChoices(services, owner)).choices).toEqual([]);
    expect((await dashboard(services)).missingCauses).toBe(true);
    await causeCatalogueAdmin(services);
    expect(warnings(warn)).toBe(1);

    await database.db.insert(causes).values({ code: "ZZ", label: "ZZ", name: "Zed cause" });
    await causesApiLoader(loaderArgs(context, "/api/config/causes"));
    expect(warnings(warn)).toBe(1);

    await database.db.delete(causes).where(eq(causes.code, "ZZ"));
    await causesApiLoader(loaderArgs(context, "/api/config/causes"));
    await causeChoices(services, owner);
    expect(warnings(warn)).toBe(2);
  });

  it("is logged by each server of its own", async () => {
    const first = testContext(database).app!;
    const second = testContext(database).app!;
    const warnFirst = vi.spyOn(first.logger, "warn");
    const warnSecond = vi.spyOn(second.logger, "warn");
    await causeChoices(first, { countryCode: "US", nolCreator: true, nolTester: false });
    await causeChoices(second, { countryCode: "US", nolCreator: true, nolTester: false });
    expect([warnings(warnFirst), warnings(warnSecond)]).toEqual([1, 1]);
  });
});
