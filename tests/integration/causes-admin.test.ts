import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, causes, countryCauses, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as causesAction, loader as causesLoader } from "~/routes/causes";
import { action as memberAction } from "~/routes/members.$userId";
import { featuresOf, keepVersionFeatures } from "~/services/nol/features.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";

type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** The cause catalogue for admins (/causes) and the NoL features of member versions. */
describe.each(drivers)("the cause catalogue (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const cookie: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await database.db.select().from(users)) {
      ids[u.username] = u.id;
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(
        (await createSession(database.db, u.id)).id,
      );
    }
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function call(route: Route, path: string, as: string, form?: Record<string, string>, params = {}) {
    try {
      return (await route({
        request: new Request(`http://localhost${path}`, {
          method: form ? "POST" : "GET",
          headers: {
            cookie: cookie[as] ?? "",
            ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } : {}),
          },
          body: form ? new URLSearchParams(form) : undefined,
        }),
        params,
        context,
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it("lists each cause with its statuses by country and its default features, for admins only", async () => {
    const page = await (await call(causesLoader, "/causes", "admin")).json();
    const ts = page.causes.find((c: { code: string }) => c.code === "TS");
    expect(ts).toMatchObject({ name: "Traffic Stop", allowNotarizeOnline: true });
    expect(Object.values(ts.status).every((s) => ["live", "testing", "beta"].includes(String(s)))).toBe(true);
    expect((await call(causesLoader, "/causes", "member")).status).toBe(403);
    expect(
      (await call(causesAction, "/causes", "member", { intent: "add-cause", code: "ZZ", label: "z", name: "Z" }))
        .status,
    ).toBe(403);
  });

  it("saves a cause's names, statuses and defaults, audited; new versions start with the new defaults, older ones keep theirs", async () => {
    await keepVersionFeatures(database.db, { userId: ids.creator!, causeCode: "TS", version: "Before the change" });
    const saved = await call(causesAction, "/causes", "admin", {
      intent: "save-cause",
      code: "TS",
      name: "Traffic Stop",
      label: "Traffic stop",
      "status.CA": "beta",
      "status.US": "none",
    });
    expect(saved.status).toBe(302);
    const rows = await database.db.select().from(countryCauses).where(eq(countryCauses.causeCode, "TS"));
    expect(rows.find((r) => r.countryCode === "CA")?.status).toBe("beta");
    expect(rows.find((r) => r.countryCode === "US")).toBeUndefined();
    const [ts] = await database.db.select().from(causes).where(eq(causes.code, "TS"));
    expect(ts!.defaultFeatures).toEqual({ AllowNotarizeOnline: false });
    await keepVersionFeatures(database.db, { userId: ids.creator!, causeCode: "TS", version: "After the change" });
    const features = await featuresOf(database.db, ids.creator!, "TS");
    expect(features("TS", "Before the change").AllowNotarizeOnline).toBe(true);
    expect(features("TS", "After the change").AllowNotarizeOnline).toBe(false);
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "causes.save"), eq(auditLog.entityId, "TS")));
    expect(entry!.data).toMatchObject({ before: { allowNotarizeOnline: true }, after: { allowNotarizeOnline: false } });
  });

  it("sets a cause's response windows, the empty ones left to the defaults; a window of 0 or 400 days changes nothing", async () => {
    const form = { intent: "save-cause", code: "UD", name: "Unlawful Detention", label: "Unlawful detention" };
    const windowsOf = async () =>
      (await database.db.select().from(causes).where(eq(causes.code, "UD")))[0]!.responseWindows;
    const page = await (await call(causesLoader, "/causes", "admin")).json();
    expect(page.defaultWindows).toEqual({ notice: 21, fault: 21, default: 21, "true-bill": 30 });
    const saved = await call(causesAction, "/causes", "admin", {
      ...form,
      "window.notice": "14",
      "window.fault": "",
      "window.true-bill": "45",
    });
    expect(saved.status).toBe(302);
    expect(await windowsOf()).toEqual({ notice: 14, "true-bill": 45 });
    for (const [days, message] of [
      ["0", "A response window is at least 1 day"],
      ["400", "A response window is at most 365 days"],
    ] as const) {
      const refused = await call(causesAction, "/causes", "admin", { ...form, "window.default": days });
      expect(refused.status).toBe(400);
      expect((await refused.json()).result.error["window.default"]).toEqual([message]);
      expect(await windowsOf()).toEqual({ notice: 14, "true-bill": 45 });
    }
    const page2 = await (await call(causesLoader, "/causes", "admin")).json();
    expect(page2.causes.find((c: { code: string }) => c.code === "UD").windows).toEqual({
      notice: 14,
      "true-bill": 45,
    });
  });

  it("lets an admin change one version's features from the member's page", async () => {
    const response = await call(
      memberAction,
      `/members/${ids.creator}`,
      "admin",
      { intent: "version-features", cause: "TS", version: "After the change", allowNotarizeOnline: "on" },
      { userId: ids.creator },
    );
    expect(response.status).toBe(302);
    const features = await featuresOf(database.db, ids.creator!, "TS");
    expect(features("TS", "After the change").AllowNotarizeOnline).toBe(true);
  });

  it("adds a cause, refuses a code in use or a bad one with field errors, and changes nothing then", async () => {
    expect(
      (
        await call(causesAction, "/causes", "admin", {
          intent: "add-cause",
          code: "lw",
          label: "Land",
          name: "Land Wrong",
        })
      ).status,
    ).toBe(302);
    expect((await database.db.select().from(causes).where(eq(causes.code, "LW"))).length).toBe(1);
    const taken = await call(causesAction, "/causes", "admin", {
      intent: "add-cause",
      code: "LW",
      label: "x",
      name: "x",
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).result.error).toMatchObject({ code: ["A cause has that code already"] });
    const bad = await call(causesAction, "/causes", "admin", { intent: "add-cause", code: "1", label: "", name: "x" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).result.error).toMatchObject({
      code: ["A cause code is 2 to 6 letters"],
      label: ["Enter the label"],
    });
    const unknown = await call(causesAction, "/causes", "admin", {
      intent: "save-cause",
      code: "QQ",
      label: "q",
      name: "q",
    });
    expect(unknown.status).toBe(404);
  });
});
