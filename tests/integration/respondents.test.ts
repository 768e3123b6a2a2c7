import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directoryRespondents, formEntries, mailOutbox, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as correctionAction, loader as correctionLoader } from "~/routes/notice-of-correction";
import { action as reassessAction } from "~/routes/respondent-reassessment";
import { loader as directoryLoader } from "~/routes/respondents._index";
import { action as reviewAction, loader as reviewLoader } from "~/routes/respondents.review";
import { action as searchAction } from "~/routes/search-for-a-respondent";
import { action as suggestAction, loader as suggestLoader } from "~/routes/suggest-a-new-respondent";
import { submitDated } from "../helpers/steps";
import { loadViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";

type Route = (args: LoaderFunctionArgs) => Promise<unknown>;

/** The respondents directory, its forms (92, 207, 134), the notice of correction (218) and the admins' review. */
describe.each(drivers)("respondents (%s)", (driver) => {
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

  async function call(route: Route, path: string, as: string | null, fields?: Record<string, string>) {
    try {
      return (await route({
        request: new Request(`http://localhost${path}`, {
          method: fields ? "POST" : "GET",
          headers: {
            cookie: as ? (cookie[as] ?? "") : "",
            ...(fields ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } : {}),
          },
          ...(fields ? { body: new URLSearchParams(fields) } : {}),
        }),
        params: {},
        context,
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  const latestEntry = async (formId: number, username: string) =>
    (
      await database.db
        .select()
        .from(formEntries)
        .where(and(eq(formEntries.formId, formId), eq(formEntries.userId, ids[username]!)))
        .orderBy(desc(formEntries.createdAt))
        .limit(1)
    )[0];

  it("lets members search the directory by name, kind and place, with a count of notices and never who sent them", async () => {
    const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
    const form = new FormData();
    for (const [k, v] of Object.entries({
      claimantName: "Cara Creator",
      dailyAmount: "250",
      r1Name: "Officer Example",
      r1Type: "Official",
      r2Name: "Someone Else",
      r2Type: "Individual",
    }))
      form.set(k, v);
    await submitDated(context.app!, viewer, viewer.member, {
      causeCode: "TS",
      version: "Directory count",
      kind: "notice",
      form,
    });
    const found = await (await call(directoryLoader, "/respondents?q=officer&type=Official", "member")).json();
    expect(found.results).toEqual([
      expect.objectContaining({ name: "Officer Example", type: "Official", place: "Springfield, US", notices: 1 }),
    ]);
    expect(JSON.stringify(found.results)).not.toContain("creator");
    const byPlace = await (await call(directoryLoader, "/respondents?place=toronto", "member")).json();
    expect(byPlace.results.map((r: { name: string }) => r.name)).toEqual(["Parking Enforcement Example"]);
    expect((await call(directoryLoader, "/respondents", null)).status).toBe(302);
  });

  it("keeps a search (form 92) as the member's entry and shows the directory's answer", async () => {
    const response = await call(searchAction, "/search-for-a-respondent", "member", { q: "Clerk", place: "" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/respondents?q=Clerk");
    expect((await latestEntry(92, "member"))?.data).toMatchObject({ q: "Clerk" });
    expect((await call(searchAction, "/search-for-a-respondent", "member", { q: "" })).status).toBe(400);
  });

  it("offers a known respondent instead of a duplicate suggestion, and stores nothing", async () => {
    const before = (await database.db.select().from(formEntries).where(eq(formEntries.formId, 207))).length;
    const response = await call(suggestAction, "/suggest-a-new-respondent", "member", {
      name: "officer  EXAMPLE",
      type: "Official",
      place: "springfield, us",
      reason: "Named in my notice",
    });
    expect(response.status).toBe(409);
    expect((await response.json()).existing).toMatchObject({ name: "Officer Example" });
    expect((await database.db.select().from(formEntries).where(eq(formEntries.formId, 207))).length).toBe(before);
  });

  it("sends a new suggestion to the admins' queue; approved, it joins the directory and the member is told", async () => {
    const bad = await call(suggestAction, "/suggest-a-new-respondent", "member", { name: "", type: "Wizard" });
    expect(bad.status).toBe(400);
    const sent = await call(suggestAction, "/suggest-a-new-respondent", "member", {
      name: "Harbour Master Example",
      type: "Official",
      agency: "Port Authority",
      place: "Halifax, CA",
      reason: "Issues the port's notices",
    });
    expect(sent.status).toBe(302);
    const entry = await latestEntry(207, "member");
    expect(entry?.reviewStatus).toBe("pending");

    expect((await call(reviewLoader, "/respondents/review", "member")).status).toBe(403);
    expect(
      (await call(reviewAction, "/respondents/review", "member", { intent: "approve", entry: entry!.id })).status,
    ).toBe(403);
    const queue = await (await call(reviewLoader, "/respondents/review", "admin")).json();
    expect(queue.queue.map((q: { id: string }) => q.id)).toContain(entry!.id);

    const approved = await call(reviewAction, "/respondents/review", "admin", {
      intent: "approve",
      entry: entry!.id,
      note: "Thank you",
    });
    expect(approved.status).toBe(302);
    const [listed] = await database.db
      .select()
      .from(directoryRespondents)
      .where(eq(directoryRespondents.name, "Harbour Master Example"));
    expect(listed).toMatchObject({ type: "Official", agency: "Port Authority", place: "Halifax, CA" });
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, "member@memberhall.example"))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(mail?.subject).toBe("Your suggestion of a respondent was approved");
    expect(mail?.text).toContain("Thank you");

    // A decision is made once.
    expect(
      (await call(reviewAction, "/respondents/review", "admin", { intent: "reject", entry: entry!.id })).status,
    ).toBe(409);
    expect(
      (await call(reviewAction, "/respondents/review", "admin", { intent: "maybe", entry: entry!.id })).status,
    ).toBe(400);
  });

  it("takes a reassessment request for a respondent of the directory; a rejected one stays out", async () => {
    const [clerk] = await database.db
      .select()
      .from(directoryRespondents)
      .where(eq(directoryRespondents.name, "County Clerk Example"));
    expect(
      (await call(reassessAction, "/respondent-reassessment", "member", { respondent: "999999", reason: "x" })).status,
    ).toBe(404);
    const sent = await call(reassessAction, "/respondent-reassessment", "member", {
      respondent: String(clerk!.id),
      reason: "Moved to another county",
    });
    expect(sent.status).toBe(302);
    const entry = await latestEntry(134, "member");
    expect(entry).toMatchObject({ reviewStatus: "pending", data: { respondentName: "County Clerk Example" } });
    expect(
      (await call(reviewAction, "/respondents/review", "admin", { intent: "reject", entry: entry!.id })).status,
    ).toBe(302);
    expect((await latestEntry(134, "member"))?.reviewStatus).toBe("rejected");
  });

  it("files a notice of correction for the member's own notice only", async () => {
    const page = await (await call(correctionLoader, "/notice-of-correction", "creator")).json();
    const own = page.notices.find((n: { label: string }) => n.label.includes("Directory count"));
    expect(own.label).toBe("TS · Directory count · Round 1");
    // Another member's notice is no one's to correct here: the same 404 as a missing one.
    expect(
      (await call(correctionAction, "/notice-of-correction", "member", { notice: String(own.id), change: "Mine" }))
        .status,
    ).toBe(404);
    const filed = await call(correctionAction, "/notice-of-correction", "creator", {
      notice: String(own.id),
      change: "The daily amount is 300",
    });
    expect(filed.status).toBe(302);
    expect((await latestEntry(218, "creator"))?.data).toMatchObject({
      noticeId: own.id,
      change: "The daily amount is 300",
    });
    expect((await call(correctionAction, "/notice-of-correction", "creator", { notice: "x" })).status).toBe(400);
  });

  it("sends visitors to log in and members still in setup to setup", async () => {
    for (const route of [suggestLoader, correctionLoader, directoryLoader]) {
      expect((await call(route, "/x", null)).headers.get("location")).toMatch(/^\/login/);
      expect((await call(route, "/x", "newbie")).headers.get("location")).toBe("/setup");
    }
  });
});
