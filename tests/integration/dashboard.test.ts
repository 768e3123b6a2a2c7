import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directoryRespondents, errorReports, webhookEvents } from "~/db/schema";
import { seedScale } from "~/db/seed-scale.server";
import { seedDemo } from "~/db/seed.server";
import { loader as adminLoader } from "~/routes/admin";
import { dashboard } from "~/services/dashboard.server";
import { recordSearch, requestReassessment, reviewEntry, suggestRespondent } from "~/services/respondents.server";
import { loadViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

/** The admins' dashboard (/admin): its numbers against the database, and its warning of missing causes. */
describe.each(drivers)("the dashboard (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedScale(database, { members: 500, entries: 500 });
    context = testContext(database);
    const now = Date.now();
    await database.db.insert(errorReports).values([
      { time: new Date(now - 3_000), href: "/a", message: "TypeError: x is undefined", stack: "old stack" },
      { time: new Date(now - 1_000), href: "/b", message: "TypeError: x is undefined", stack: "new stack" },
      { time: new Date(now - 2_000), href: "/c", message: "Network down", stack: null },
    ]);
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  const count = async (query: string) => Number((await database.executeSql(query)).rows[0]?.n);

  it("counts the members, memberships, revenue and backlogs as the tables hold them", async () => {
    const numbers = await dashboard(context.app!);
    expect(numbers.members.total).toBe(await count("select count(*) as n from users"));
    expect(numbers.members.newThisWeek).toBe(
      await count("select count(*) as n from users where created_at >= now() - interval '7 days'"),
    );
    const active = numbers.members.byStatus.find((s) => s.status === "ACTIVE")!;
    expect(active.n).toBe(await count("select count(*) as n from users where subscription_status = 'ACTIVE'"));
    expect(numbers.subscriptions.active).toBe(
      await count("select count(*) as n from subscriptions where status = 'ACTIVE'"),
    );
    expect(numbers.subscriptions.mrrCents).toBeGreaterThan(0);
    expect(numbers.weeks).toHaveLength(12);
    expect(numbers.weeks.reduce((sum, w) => sum + w.signups, 0)).toBe(
      await count(
        "select count(*) as n from users where created_at >= date_trunc('week', now()) - interval '11 weeks'",
      ),
    );
    expect(numbers.missingCauses).toBe(false);
  });

  it("counts webhook events waiting to be applied apart from those kept because they could not be read", async () => {
    await database.db.insert(webhookEvents).values([
      { provider: "stripe", eventId: "evt_waiting", type: "invoice.paid", payload: {} },
      { provider: "stripe", eventId: "evt_done", type: "invoice.paid", payload: {}, processedAt: new Date() },
      { provider: "stripe", eventId: "evt_unreadable", type: "invoice.paid", payload: {}, error: "cannot read it" },
    ]);
    const numbers = await dashboard(context.app!);
    expect(numbers.webhookBacklog).toBe(
      await count("select count(*) as n from webhook_events where processed_at is null and error is null"),
    );
    expect(numbers.webhookUnreadable).toBe(
      await count("select count(*) as n from webhook_events where processed_at is null and error is not null"),
    );
    expect(numbers.webhookUnreadable).toBeGreaterThanOrEqual(1);
    expect(numbers.webhookBacklog).toBeGreaterThanOrEqual(1);
  });

  it("counts the respondent suggestions and reassessment requests waiting for a review, and no other entry", async () => {
    const services = context.app!;
    const viewerOf = async (username: string, admin = false) => {
      const user = await createUser(database.db, { username, admin });
      return (await loadViewer(database.db, (await createSession(database.db, user.id)).id))!;
    };
    const member = await viewerOf("dashsuggests");
    const admin = await viewerOf("dashreviews", true);
    const waiting = async () => (await dashboard(services)).respondentReviews;
    expect(await waiting()).toBe(
      await count("select count(*) as n from form_entries where review_status = 'pending' and form_id in (207, 134)"),
    );
    const before = await waiting();
    const suggested = await suggestRespondent(services, member, {
      name: "Dashboard Example Agency",
      type: "Agency",
      place: "Halifax, CA",
      reason: "Sends the notices",
    });
    expect(suggested).toHaveProperty("entryNumber");
    const [respondent] = await database.db.select().from(directoryRespondents).limit(1);
    await requestReassessment(services, member, { respondent: respondent!.id, reason: "Moved away" });
    // A search is kept as an entry too, and waits for no one.
    await recordSearch(services, member, { q: "clerk" });
    expect(await waiting()).toBe(before + 2);

    const [entry] = (
      await database.executeSql(
        "select id from form_entries where review_status = 'pending' and form_id = 207 order by created_at desc limit 1",
      )
    ).rows as { id: string }[];
    await reviewEntry(services, admin, { intent: "reject", entry: entry!.id });
    expect(await waiting()).toBe(before + 1);
  });

  it("groups the client errors by message, newest first, with the newest stack", async () => {
    const { errors } = await dashboard(context.app!);
    expect(errors.map((e) => [e.message, e.n, e.stack])).toEqual([
      ["TypeError: x is undefined", 2, "new stack"],
      ["Network down", 1, null],
    ]);
  });

  it("is the admin page's, for admins only", async () => {
    const admin = await createUser(database.db, { username: "dashadmin", admin: true });
    const session = await createSession(database.db, admin.id);
    const cookie = await siteCookies(context.app!.config).session.serialize(session.id);
    const response = (await adminLoader({
      request: new Request("http://localhost/admin", { headers: { cookie } }),
      params: {},
      context,
    })) as Response;
    expect((await response.json()).dashboard.members.total).toBeGreaterThan(500);
    const member = await createUser(database.db, { username: "dashmember" });
    const memberCookie = await siteCookies(context.app!.config).session.serialize(
      (await createSession(database.db, member.id)).id,
    );
    const refused = await adminLoader({
      request: new Request("http://localhost/admin", { headers: { cookie: memberCookie } }),
      params: {},
      context,
    }).catch((thrown: unknown) => thrown as Response);
    expect((refused as Response).status).toBe(403);
  });

  it("warns of a catalogue without causes, and logs 'Missing causes'", async () => {
    const empty = await createTestDatabase(driver);
    try {
      const services = testContext(empty).app!;
      const warn = vi.spyOn(services.logger, "warn");
      expect((await dashboard(services)).missingCauses).toBe(true);
      expect(warn).toHaveBeenCalledWith("Missing causes");
    } finally {
      await empty.dispose();
    }
  });
});
