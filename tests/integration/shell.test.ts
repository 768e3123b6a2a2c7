import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, errorReports, formEntries, mailOutbox, newsletterSubscriptions, supportRequests } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { loader as rootLoader } from "~/root";
import { action as adminAction } from "~/routes/admin";
import { action as errorsAction } from "~/routes/api.errors";
import { loader as recordsLoader } from "~/routes/db.($entity).($view)";
import { renderContent } from "~/services/content.server";
import { verifiedDiscount } from "~/services/coupons.server";
import { confirmNewsletter, subscribeNewsletter, unsubscribeNewsletter } from "~/services/newsletter.server";
import { loadViewer, siteCookies } from "~/services/session.server";
import { submitSupportRequest } from "~/services/support.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

describe("the app shell's services", () => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database, { SUPPORT_EMAIL: "help@example.org" });
    services = context.app!;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const mailsTo = (to: string) =>
    database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id));

  describe("POST /api/errors", () => {
    const post = (body: string, ip = "192.0.2.50", headers: Record<string, string> = {}) =>
      errorsAction({
        request: new Request("http://localhost/api/errors", {
          method: "POST",
          body,
          headers: { "content-type": "application/json", ...headers },
        }),
        params: {},
        context: { ...context, clientIp: ip },
      }) as Promise<Response>;
    const report = (message: string) => ({
      time: new Date().toISOString(),
      href: "http://localhost/profile",
      message,
      stack: "Error: x\n    at y",
      state: { username: "member" },
    });

    it("stores an array of reports", async () => {
      const response = await post(JSON.stringify([report("first failure"), report("second failure")]));
      expect(response.status).toBe(201);
      const rows = await database.db.select().from(errorReports);
      expect(rows.map((r) => r.message).sort()).toEqual(["first failure", "second failure"]);
      expect(rows[0]!.ip).toBe("192.0.2.50");
    });

    it.each([
      ["not JSON", "{nope"],
      ["an object instead of an array", JSON.stringify(report("x"))],
      ["an empty array", "[]"],
      ["a report without a message", JSON.stringify([{ ...report("x"), message: "" }])],
      ["a bad time", JSON.stringify([{ ...report("x"), time: "yesterday" }])],
      ["too many reports", JSON.stringify(Array.from({ length: 21 }, () => report("x")))],
    ])("answers %s with 400 and stores nothing", async (_what, body) => {
      const before = (await database.db.select().from(errorReports)).length;
      const response = await post(body, "192.0.2.51");
      expect(response.status).toBe(400);
      expect((await database.db.select().from(errorReports)).length).toBe(before);
    });

    it("names each refused value of a report by its path", async () => {
      const response = await post(
        JSON.stringify([report("fine"), { ...report("x"), time: "yesterday" }]),
        "192.0.2.53",
      );
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error).toBe("Invalid error reports");
      expect(Object.keys(body.fieldErrors)).toEqual(["1.time"]);
    });

    it("answers a body over 64 KiB with 413, whether or not its length is declared", async () => {
      const big = JSON.stringify([{ ...report("x"), stack: "s".repeat(70_000) }]);
      expect((await post(big, "192.0.2.52")).status).toBe(413);
      expect((await post("[]", "192.0.2.52", { "content-length": String(70_000) })).status).toBe(413);
    });

    it("rate-limits one address", async () => {
      // All posts fall in one minute whatever the wall clock says.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2030-01-01T00:00:05Z"));
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 31; i += 1) {
          statuses.push((await post(JSON.stringify([report(`n${i}`)]), "192.0.2.53")).status);
        }
        expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
        expect(statuses[30]).toBe(429);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe("support", () => {
    it("stores the request as a form 255 entry and mails the support address", async () => {
      const result = await submitSupportRequest(
        services,
        {
          email: "member@memberhall.example",
          name: "Mem",
          subject: "Help with round 2",
          message: "Where is my notice?",
          source: "Member Site",
        },
        { userId: null, ip: "192.0.2.60", actor: null },
      );
      expect(result.entryNumber).toEqual(expect.any(Number));
      const [request] = await database.db.select().from(supportRequests);
      expect(request).toMatchObject({
        email: "member@memberhall.example",
        subject: "Help with round 2",
        source: "Member Site",
      });
      const [entry] = await database.db.select().from(formEntries).where(eq(formEntries.id, request!.formEntryId!));
      expect(entry).toMatchObject({ formId: 255, entryNumber: result.entryNumber });
      expect(entry!.editHash).toMatch(/^.{31,}\*$/);
      const [mail] = await mailsTo("help@example.org");
      expect(mail!.subject).toBe(`Support request #${result.entryNumber}: Help with round 2`);
      expect(mail!.text).toContain("Where is my notice?");
    });

    it("numbers a form's entries one after another", async () => {
      const input = { email: "a@example.org", subject: "s", message: "m", source: "Member Site" as const };
      const results = await Promise.all(
        [1, 2, 3].map(() => submitSupportRequest(services, input, { userId: null, ip: "192.0.2.61", actor: null })),
      );
      const numbers = results.map((r) => r.entryNumber).sort();
      expect(new Set(numbers).size).toBe(3);
      expect(numbers[2]! - numbers[0]!).toBe(2);
    });

    it("audits a request sent while an admin represents a member, with both ids", async () => {
      const admin = await createUser(database.db, { admin: true });
      const member = await createUser(database.db);
      const result = await submitSupportRequest(
        services,
        { email: member.email, subject: "On behalf", message: "Asked by phone", source: "Member Site" },
        { userId: member.id, ip: "192.0.2.62", actor: { actorUserId: admin.id, agentUserId: member.id } },
      );
      expect(result.entryNumber).toEqual(expect.any(Number));
      const rows = await database.db.select().from(auditLog).where(eq(auditLog.action, "support.request"));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actorUserId: admin.id, agentUserId: member.id, entity: "support_request" });
    });
  });

  describe("admin pages", () => {
    const asAdmin = async () => {
      const admin = await createUser(database.db, { admin: true });
      const session = await createSession(database.db, admin.id);
      return { session, cookie: await siteCookies(services.config).session.serialize(session.id) };
    };
    const represent = (cookie: string, fields: Record<string, string>) =>
      adminAction({
        request: new Request("http://localhost/admin", {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { cookie },
        }),
        params: {},
        context,
      }) as Promise<Response>;

    it("asks for a username, refuses an unknown one, and represents a member by name", async () => {
      const { session, cookie } = await asAdmin();
      const member = await createUser(database.db);

      const empty = await represent(cookie, { intent: "start-agent", username: "" });
      expect(empty.status).toBe(400);
      expect((await empty.json()).result.error.username).toEqual(["Enter the username of the member to represent"]);

      const unknown = await represent(cookie, { intent: "start-agent", username: "nobody-here" });
      expect(unknown.status).toBe(400);
      expect((await unknown.json()).result.error.username).toEqual(["No such member"]);

      const started = await represent(cookie, { intent: "start-agent", username: member.username });
      expect(started.status).toBe(302);
      expect((await loadViewer(database.db, session.id))?.agent?.id).toBe(member.id);

      expect((await represent(cookie, { intent: "stop-agent" })).status).toBe(302);
      expect((await loadViewer(database.db, session.id))?.agent).toBeNull();
    });

    it("shows a record view, and the page's 404 for a record or a view that does not exist", async () => {
      const { cookie } = await asAdmin();
      const load = (entity?: string, view?: string) =>
        recordsLoader({
          request: new Request("http://localhost/db", { headers: { cookie } }),
          params: { entity, view },
          context,
        }).catch((thrown: unknown) => thrown as Response);
      expect(await (await load("audit_log")).json()).toMatchObject({ view: "list", title: "Audit log" });
      for (const [entity, view] of [
        ["users", undefined],
        ["audit_log", "999999999"],
        ["audit_log", "not-a-number"],
        ["mail_outbox", "abc"],
        ["mail_outbox", "999999"],
      ]) {
        const response = await load(entity, view);
        expect(response.status).toBe(404);
        expect(await response.json()).toBe("This page could not be found");
      }
    });
  });

  describe("newsletter", () => {
    const linkFrom = (text: string, kind: "confirm" | "unsubscribe") =>
      new RegExp(`\\?${kind}=([\\w-]+)`).exec(text)![1]!;

    it("subscribes with double opt-in, keeps one row per address and puts an unsubscribe link in every mail", async () => {
      await subscribeNewsletter(services, "reader@example.org", "192.0.2.70");
      const [pending] = await database.db.select().from(newsletterSubscriptions);
      expect(pending!.status).toBe("pending");
      const [first] = await mailsTo("reader@example.org");
      expect(first!.subject).toBe("Confirm your newsletter subscription");
      expect(first!.text).toContain("?unsubscribe=");

      await subscribeNewsletter(services, "reader@example.org", "192.0.2.70");
      const [second] = await mailsTo("reader@example.org");
      expect(await confirmNewsletter(services, linkFrom(first!.text, "confirm"))).toBe(false);
      expect(await confirmNewsletter(services, linkFrom(second!.text, "confirm"))).toBe(true);
      expect((await database.db.select().from(newsletterSubscriptions))[0]!.status).toBe("confirmed");

      await subscribeNewsletter(services, "READER@example.org".toLowerCase(), "192.0.2.70");
      const [third] = await mailsTo("reader@example.org");
      expect(third!.subject).toBe("You already receive our newsletter");
      expect(third!.text).toContain("?unsubscribe=");

      const rows = await database.db
        .select()
        .from(newsletterSubscriptions)
        .where(sql`lower(${newsletterSubscriptions.email}) = 'reader@example.org'`);
      expect(rows).toHaveLength(1);

      expect(await unsubscribeNewsletter(services, linkFrom(third!.text, "unsubscribe"))).toBe(true);
      expect((await database.db.select().from(newsletterSubscriptions))[0]!.status).toBe("unsubscribed");
    });

    it("brings an address confirmed with an older token to the one its mails now carry", async () => {
      await subscribeNewsletter(services, "veteran@example.org", "192.0.2.73");
      const [first] = await mailsTo("veteran@example.org");
      expect(await confirmNewsletter(services, linkFrom(first!.text, "confirm"))).toBe(true);
      await database.db
        .update(newsletterSubscriptions)
        .set({ unsubscribeTokenHash: "an-older-random-token-hash" })
        .where(sql`lower(${newsletterSubscriptions.email}) = 'veteran@example.org'`);
      await subscribeNewsletter(services, "veteran@example.org", "192.0.2.73");
      const [again] = await mailsTo("veteran@example.org");
      expect(await unsubscribeNewsletter(services, linkFrom(again!.text, "unsubscribe"))).toBe(true);
    });

    it("keeps the unsubscribe link of every earlier mail working after a new request", async () => {
      await subscribeNewsletter(services, "keeper@example.org", "192.0.2.71");
      const [first] = await mailsTo("keeper@example.org");
      expect(await confirmNewsletter(services, linkFrom(first!.text, "confirm"))).toBe(true);
      await subscribeNewsletter(services, "keeper@example.org", "192.0.2.71");
      const [second] = await mailsTo("keeper@example.org");
      expect(linkFrom(second!.text, "unsubscribe")).toBe(linkFrom(first!.text, "unsubscribe"));
      expect(await unsubscribeNewsletter(services, linkFrom(first!.text, "unsubscribe"))).toBe(true);
    });

    it("keeps one row and one working confirmation link when two first requests race", async () => {
      await Promise.all([
        subscribeNewsletter(services, "racer@example.org", "192.0.2.72"),
        subscribeNewsletter(services, "racer@example.org", "192.0.2.72"),
      ]);
      const rows = await database.db
        .select()
        .from(newsletterSubscriptions)
        .where(sql`lower(${newsletterSubscriptions.email}) = 'racer@example.org'`);
      expect(rows).toHaveLength(1);
      const mails = await mailsTo("racer@example.org");
      expect(mails).toHaveLength(2);
      // Each request replaces the confirmation token of a pending row: one of the two works.
      const results = [];
      for (const mail of mails) results.push(await confirmNewsletter(services, linkFrom(mail.text, "confirm")));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe("coupon landing", () => {
    it("verifies an active discount with a valid coupon, whatever the slug's case", async () => {
      const offer = await verifiedDiscount(database.db, "WELCOME");
      expect(offer).toMatchObject({ slug: "welcome", description: "10% off your first payment" });
      expect(offer!.plans.map((p) => p.id).sort()).toEqual(["annual", "monthly"]);
    });

    it("refuses an unknown slug or a malformed one", async () => {
      expect(await verifiedDiscount(database.db, "nope")).toBeNull();
      expect(await verifiedDiscount(database.db, "../../etc")).toBeNull();
    });
  });
});

describe("community variants", () => {
  it("COMMUNITY=church renames the community the pages show", async () => {
    const database = await createTestDatabase("pglite");
    try {
      const load = async (community: string) => {
        const context = testContext(database, { COMMUNITY: community });
        const response = (await rootLoader({
          request: new Request("http://localhost/"),
          params: {},
          context,
        })) as Response;
        return (await response.json()).community;
      };
      expect((await load("default")).name).toBe("Memberhall Community");
      expect(await load("church")).toMatchObject({ variant: "church", name: "Memberhall Fellowship" });
    } finally {
      await database.dispose();
    }
  });
});

describe("content pages", () => {
  it("renders the community's Markdown with its name, dropping raw HTML", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-content-"));
    writeFileSync(
      path.join(dir, "terms-of-service.md"),
      "# Terms of {{community}}\n\nBe kind.<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n",
    );
    const page = await renderContent(dir, "terms-of-service", "Our <Group>");
    expect(page.title).toBe("Terms of Our <Group>");
    expect(page.html).toContain("<h1>Terms of Our &lt;Group&gt;</h1>");
    expect(page.html).toContain("Be kind.");
    expect(page.html).not.toContain("<script");
    expect(page.html).not.toContain("onerror");
  });

  it("ships the Terms of Service and the Privacy Policy", async () => {
    const dir = path.resolve(import.meta.dirname, "../../content");
    expect((await renderContent(dir, "terms-of-service", "X")).title).toBe("Terms of Service");
    expect((await renderContent(dir, "privacy-policy", "X")).title).toBe("Privacy Policy");
  });
});
