import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { causes, countryCauses, settings } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { causeCatalogueSchema, publicConfigSchema, publicEntities } from "~/domain/entities";
import { loader as causesLoader } from "~/routes/api.config.causes";
import { loader as configLoader } from "~/routes/api.config";
import { loader as schemaLoader } from "~/routes/api.schema";
import { loaderArgs, testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";

describe.each(drivers)("config API on %s", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "demo-password-1" });
    context = testContext(database, { COMMUNITY: "church", FREE: "true", LRM_URL: "https://learn.example.org" });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("GET /api/config sends the spec's config values and the server's public key", async () => {
    const response = await configLoader(loaderArgs(context, "/api/config"));
    expect(response.status).toBe(200);
    const body = publicConfigSchema.strict().parse(await response.json());
    expect(body).toMatchObject({
      community: "church",
      free: true,
      nodeEnv: "test",
      isTestNotarize: true,
      isTestStripe: true,
      lrm: "https://learn.example.org",
      statePublicKey: context.app!.config.statePublicKey,
    });
  });

  it("GET /api/config/causes sends the catalogue from the database", async () => {
    const response = await causesLoader(loaderArgs(context, "/api/config/causes"));
    const body = causeCatalogueSchema.strict().parse(await response.json());
    expect(body.causes.TS).toEqual({ label: "Traffic stop", name: "Traffic Stop" });
    expect(body.countryCauses.US).toEqual({
      live_causes: ["PS", "TS", "UD"],
      testing_causes: ["CR", "TD"],
      beta_causes: ["EV", "MC"],
    });
    expect(body.mnInviteLink).toMatch(/^https:\/\//);
    expect(Object.keys(body.mightyLinks).length).toBeGreaterThan(0);
  });

  it("reflects a cause added to the database", async () => {
    await database.db.insert(causes).values({ code: "NW", label: "New cause", name: "New Cause" });
    await database.db.insert(countryCauses).values({ countryCode: "GB", causeCode: "NW", status: "beta" });
    const body = causeCatalogueSchema.parse(
      await (await causesLoader(loaderArgs(context, "/api/config/causes"))).json(),
    );
    expect(body.causes.NW).toEqual({ label: "New cause", name: "New Cause" });
    expect(body.countryCauses.GB?.beta_causes).toContain("NW");
  });

  it("sends null and an empty map when the community links are missing or malformed", async () => {
    await database.db.delete(settings);
    await database.db.insert(settings).values({ key: "mightyLinks", value: "not a map" });
    const body = await (await causesLoader(loaderArgs(context, "/api/config/causes"))).json();
    expect(body.mnInviteLink).toBeNull();
    expect(body.mightyLinks).toEqual({});
  });
});

describe("GET /api/schema", () => {
  it("describes every public entity as JSON Schema", async () => {
    const response = await schemaLoader();
    type Definition = { properties: Record<string, { maxItems?: number }>; required: string[] };
    const body = (await response.json()) as { definitions: Record<string, Definition> };
    expect(Object.keys(body.definitions)).toEqual(Object.keys(publicEntities));
    expect(body.definitions.Notice?.properties.notarize).toBeDefined();
    expect(body.definitions.CouponDiscount?.required).toContain("coupon_slug");
    expect(body.definitions.NolEntry?.properties.continue_respondents?.maxItems).toBe(8);
  });
});
