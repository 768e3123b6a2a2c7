import type { AppLoadContext } from "@remix-run/node";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, settings, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { LINK_NOT_HTTPS, LINK_TOO_LONG } from "~/domain/community-links";
import { loader as causesLoader } from "~/routes/api.config.causes";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin_.settings";
import { siteCookies } from "~/services/session.server";
import { loaderArgs, testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";

type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** /admin/settings: the community links that GET /api/config/causes answers with (spec §3, §7). */
describe.each(drivers)("the community links (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const cookie: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await database.db.select().from(users)) {
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(
        (await createSession(database.db, u.id)).id,
      );
    }
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function call(route: Route, as: string, form?: Record<string, string>) {
    try {
      return (await route({
        request: new Request("http://localhost/admin/settings", {
          method: form ? "POST" : "GET",
          headers: {
            cookie: cookie[as] ?? "",
            ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } : {}),
          },
          ...(form ? { body: new URLSearchParams(form) } : {}),
        }),
        params: {},
        context,
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  const stored = async () =>
    Object.fromEntries((await database.db.select().from(settings)).map((row) => [row.key, row.value]));
  const catalogue = async () => (await causesLoader(loaderArgs(context, "/api/config/causes"))).json();

  it("shows an admin the links and the causes, and keeps members out", async () => {
    const { links: page, mailing } = await (await call(settingsLoader, "admin")).json();
    expect(page.mnInviteLink).toMatch(/^https:\/\//);
    expect(page.causes.map((c: { code: string }) => c.code)).toContain("TS");
    expect(page.mightyLinks).toEqual((await catalogue()).mightyLinks);
    // The mailing settings beside them, as their form shows them.
    expect(mailing).toMatchObject({ perEnvelope: "9.50", returnLine1: "", lostAfterDays: "10" });
    expect((await call(settingsLoader, "member")).status).toBe(403);
    expect(
      (await call(settingsAction, "member", { intent: "save-links", mnInviteLink: "https://evil.example/" })).status,
    ).toBe(403);
  });

  it("saves the links, audited, and the catalogue answers with them; an empty field leaves its link out", async () => {
    const response = await call(settingsAction, "admin", {
      intent: "save-links",
      mnInviteLink: "https://chat.example.org/invite/abc",
      "mightyLinks.TS": "https://chat.example.org/spaces/traffic",
      "mightyLinks.PS": "",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/settings");
    const body = await catalogue();
    expect(body.mnInviteLink).toBe("https://chat.example.org/invite/abc");
    expect(body.mightyLinks).toEqual({ TS: "https://chat.example.org/spaces/traffic" });
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "settings.links"))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({ entity: "settings", ip: "203.0.113.7" });
    expect(entry!.data).toMatchObject({
      after: { mnInviteLink: "https://chat.example.org/invite/abc" },
      before: { mnInviteLink: expect.stringMatching(/^https:\/\//) },
    });

    // A post without the form's fields clears nothing; the form with its fields empty clears them all.
    const empty = await call(settingsAction, "admin", {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).result.error).toEqual({ intent: ["Send the links from the settings page"] });
    expect((await catalogue()).mnInviteLink).toBe("https://chat.example.org/invite/abc");
    expect((await call(settingsAction, "admin", { intent: "save-links", mnInviteLink: "" })).status).toBe(302);
    expect(await catalogue()).toMatchObject({ mnInviteLink: null, mightyLinks: {} });
  });

  it.each([
    ["text that is no address", "not a link", LINK_NOT_HTTPS],
    ["a javascript: address", "javascript:alert(document.cookie)", LINK_NOT_HTTPS],
    ["an address over 500 characters", `https://chat.example.org/${"x".repeat(500)}`, LINK_TOO_LONG],
  ])("refuses %s beside its field and saves nothing", async (_, bad, message) => {
    await call(settingsAction, "admin", { intent: "save-links", mnInviteLink: "https://chat.example.org/kept" });
    const before = await stored();
    for (const form of [
      { intent: "save-links", mnInviteLink: bad, "mightyLinks.TS": "https://chat.example.org/fine" },
      { intent: "save-links", mnInviteLink: "https://chat.example.org/fine", "mightyLinks.TS": bad },
    ]) {
      const response = await call(settingsAction, "admin", form);
      expect(response.status).toBe(400);
      const { result } = await response.json();
      const field = form.mnInviteLink === bad ? "mnInviteLink" : "mightyLinks.TS";
      expect(result.error).toEqual({ [field]: [message] });
      expect(result.initialValue[field.split(".")[0]!]).toBeDefined();
      expect(await stored()).toEqual(before);
    }
  });

  it("refuses a space for a cause the catalogue does not have, and saves nothing", async () => {
    const before = await stored();
    const response = await call(settingsAction, "admin", {
      intent: "save-links",
      "mightyLinks.ZZZ": "https://chat.example.org/zzz",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).result.error[""]).toEqual(["No cause has the code ZZZ"]);
    expect(await stored()).toEqual(before);
  });
});
