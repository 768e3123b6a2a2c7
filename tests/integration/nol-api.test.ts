import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nolEditors, nolEntries, pendingSubmissions, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { memberVersionsResultSchema } from "~/domain/entities";
import type { DomainError } from "~/domain/errors";
import { action as authAction } from "~/routes/api.creator.auth";
import { action as submittedAction } from "~/routes/api.entry.cognito-submitted";
import { loader as editorsLoader } from "~/routes/api.entry.nol-editors";
import { loader as versionsLoader } from "~/routes/api.entry.nol-member-versions";
import { loader as causesLoader } from "~/routes/nol.$form._index";
import { loader as versionsPageLoader } from "~/routes/nol.$form.$cause._index";
import { action as stepAction, loader as stepLoader } from "~/routes/nol.$form.$cause.$step";
import { loader as seamlessLoader } from "~/routes/nol.seemless.($formId).$formHash";
import { loadViewer, siteCookies } from "~/services/session.server";
import { entriesOf, nextBillLines, versionState } from "~/services/nol/entries.server";
import { type submitStep } from "~/services/nol/save-step.server";
import { submitDated } from "../helpers/steps";
import { versionTimeline } from "~/services/nol/timeline.server";
import { seamlessEntry } from "~/services/nol/seamless.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";
import { formOf } from "../helpers/requests";

describe.each(drivers)("NoL entry API on %s", (driver) => {
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
      const session = await createSession(database.db, u.id);
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(session.id);
    }
    // The creator writes notices of Traffic Stop (live in the US).
    const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
    const result = await submitDated(context.app!, viewer, viewer.member, {
      causeCode: "TS",
      version: "Spring 2026",
      kind: "notice",
      form: formOf({ claimantName: "Cara Creator", dailyAmount: "250", r1Name: "Officer Example", r1Type: "Official" }),
    });
    expect(result.entryId).toMatch(/^187-\d+$/);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const get = (username: string, query: string) =>
    versionsLoader({
      request: new Request(`http://localhost/api/entry/nol-member-versions?${query}`, {
        headers: { cookie: cookie[username] ?? "" },
      }),
      params: {},
      context,
    }) as Promise<Response>;

  const status = async (p: Promise<Response>) => {
    try {
      return (await p).status;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      throw thrown;
    }
  };

  describe("GET /api/entry/nol-member-versions", () => {
    it("gives the member their own versions with pending, nolFeatures and userAuthInfo", async () => {
      const response = await get("creator", "cause=TS");
      expect(response.status).toBe(200);
      const body = memberVersionsResultSchema.parse(await response.json());
      expect(body.list).toHaveLength(1);
      expect(body.list[0]).toMatchObject({
        form: "NoLCreator2",
        cause: "TS",
        descriptive_version: "Spring 2026",
        nol_tracking: [true],
      });
      expect(body.list[0]!.edit_link).toMatch(/^\/nol\/seemless\/187\/.{31,}%2A\?entry=/);
      expect(body.nolFeatures).toEqual([
        { CauseCode: "TS", DescriptiveVersion: "Spring 2026", AllowNotarizeOnline: true },
      ]);
      expect(body.userAuthInfo).toMatchObject({ username: "creator", country: "US" });
      expect(body.userAuthInfo!.hash).toMatch(/^[0-9a-f]{40}$/);
      expect(body.pending).toEqual([]);

      // The same entry opens by its hash with or without the form id (spec §2.2).
      const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
      const hash = decodeURIComponent(/\/nol\/seemless\/187\/([^?]+)/.exec(body.list[0]!.edit_link ?? "")![1]!);
      const withId = await seamlessEntry(database.db, viewer, "187", hash, "{}");
      const withoutId = await seamlessEntry(database.db, viewer, undefined, hash, "{}");
      expect(withoutId.row.id).toBe(withId.row.id);
      expect(withoutId.editable).toBe(true);
    });

    it("opens the seamless page only with its entry named: 404 without it, as for a missing page (spec §8)", async () => {
      const body = memberVersionsResultSchema.parse(await (await get("creator", "cause=TS")).json());
      const link = new URL(body.list[0]!.view_link!, "http://localhost");
      const [, , , formId, formHash] = link.pathname.split("/");
      const open = (username: string, search: string) =>
        status(
          seamlessLoader({
            request: new Request(`http://localhost${link.pathname}${search}`, {
              headers: { cookie: cookie[username] ?? "" },
            }),
            params: { formId, formHash: decodeURIComponent(formHash!) },
            context,
          }) as Promise<Response>,
        );
      expect(await open("creator", link.search)).toBe(200);
      expect(await open("creator", "")).toBe(404);
      expect(await open("creator", "?entry=not-json")).toBe(404);
      // Someone else's entry is the same 404 as a missing one.
      expect(await open("member", link.search)).toBe(404);
    });

    it("answers another member's entries with the same 404 as an unknown member's", async () => {
      const unknown = await get("member", "username=nobody-at-all");
      const refused = await get("member", "username=creator");
      expect(unknown.status).toBe(404);
      expect(refused.status).toBe(unknown.status);
      expect(await refused.json()).toEqual(await unknown.json());
    });

    it("lets an admin read another member's entries", async () => {
      const response = await get("admin", "username=creator&cause=TS");
      expect(response.status).toBe(200);
      expect((await response.json()).list).toHaveLength(1);
    });

    it("lets the member's editor read them, and only while an editor", async () => {
      await database.db.insert(nolEditors).values({ ownerUserId: ids.creator!, editorUserId: ids.tester! });
      const response = await get("tester", "username=creator");
      expect(response.status).toBe(200);
      expect((await response.json()).list[0].username).toBe("creator");
      await database.db.delete(nolEditors).where(eq(nolEditors.editorUserId, ids.tester!));
      expect(await status(get("tester", "username=creator"))).toBe(404);
    });

    it("answers 'Unknown cause code' with 404 for a cause that does not exist, and 401 to a visitor", async () => {
      const response = await get("creator", "cause=ZZZ");
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Unknown cause code" });
      expect(await status(get("nobody", "cause=TS"))).toBe(401);
    });

    it("clears the auth hash of a member who is neither creator nor tester", async () => {
      // The published schema describes the answer as it is: the hash is null.
      const body = memberVersionsResultSchema.parse(await (await get("member", "")).json());
      expect(body.userAuthInfo!.hash).toBeNull();
    });
  });

  describe("GET /api/entry/nol-editors", () => {
    it("lists who edits the member's notices and whose the member edits", async () => {
      await database.db
        .insert(nolEditors)
        .values({ ownerUserId: ids.creator!, editorUserId: ids.member! })
        .onConflictDoNothing();
      const request = (u: string) =>
        editorsLoader({
          request: new Request("http://localhost/api/entry/nol-editors", { headers: { cookie: cookie[u]! } }),
          params: {},
          context,
        }) as Promise<Response>;
      expect(await (await request("creator")).json()).toMatchObject({ editors: [{ username: "member" }], editing: [] });
      expect(await (await request("member")).json()).toMatchObject({ editors: [], editing: [{ username: "creator" }] });
      await database.db.delete(nolEditors).where(eq(nolEditors.editorUserId, ids.member!));
    });
  });

  describe("POST /api/creator/auth", () => {
    const post = (u: string, body: unknown, contentType = "application/json") =>
      authAction({
        request: new Request("http://localhost/api/creator/auth", {
          method: "POST",
          body: typeof body === "string" ? body : JSON.stringify(body),
          headers: { cookie: cookie[u]!, "content-type": contentType },
        }),
        params: {},
        context,
      }) as Promise<Response>;

    it("gives the creator's auth entry with a hash, a plain member's without", async () => {
      expect(await (await post("creator", {})).json()).toMatchObject({
        username: "creator",
        email: "creator@memberhall.example",
      });
      expect((await (await post("tester", {})).json()).hash).toMatch(/^[0-9a-f]{40}$/);
      expect((await (await post("member", {})).json()).hash).toBeNull();
    });

    it("refuses another member's auth entry (404), bad JSON (400) and a form body (415)", async () => {
      expect(await status(post("member", { username: "creator" }))).toBe(404);
      expect(await status(post("creator", "{bad"))).toBe(400);
      expect(await status(post("creator", { extra: 1 }))).toBe(400);
      expect(await status(post("creator", "username=x", "application/x-www-form-urlencoded"))).toBe(415);
    });
  });

  describe("POST /api/entry/cognito-submitted", () => {
    const body = {
      username: "creator",
      cause: "TS",
      descriptive_version: "  Spring 2026  ",
      prior_rows: 1,
      entry_id: "187-1",
      prior_updated: new Date().toISOString(),
    };
    const post = (u: string, b: unknown) =>
      submittedAction({
        request: new Request("http://localhost/api/entry/cognito-submitted", {
          method: "POST",
          body: JSON.stringify(b),
          headers: { cookie: cookie[u]!, "content-type": "application/json" },
        }),
        params: {},
        context,
      }) as Promise<Response>;

    it("adds a pending record with the trimmed version, which the versions call then lists", async () => {
      expect((await post("creator", body)).status).toBe(201);
      const [row] = await database.db
        .select()
        .from(pendingSubmissions)
        .where(and(eq(pendingSubmissions.entryId, "187-1"), isNull(pendingSubmissions.resolvedAt)));
      expect(row).toMatchObject({ descriptiveVersion: "Spring 2026", priorRows: 1, username: "creator" });
      const listed = await (await get("creator", "cause=TS")).json();
      expect(listed.pending).toContainEqual(
        expect.objectContaining({ entry_id: "187-1", descriptive_version: "Spring 2026" }),
      );
    });

    it("refuses another member's submission (404), an unknown cause (404) and a malformed body (400)", async () => {
      const before = (await database.db.select().from(pendingSubmissions)).length;
      expect(await status(post("member", body))).toBe(404);
      const unknown = await post("creator", { ...body, cause: "ZZZ" });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Unknown cause code" });
      expect(await status(post("creator", { ...body, prior_rows: -1 }))).toBe(400);
      expect((await database.db.select().from(pendingSubmissions)).length).toBe(before);
    });

    it("refuses a cause that is not open to the member (403), and someone else's or a missing entry alike (404)", async () => {
      const before = (await database.db.select().from(pendingSubmissions)).length;
      // Every cause of the US is closed to a member who is neither creator nor tester.
      expect(await status(post("member", { ...body, username: "member", entry_id: null }))).toBe(403);
      // The beta cause MC is listed but open to nobody.
      expect(await status(post("creator", { ...body, cause: "MC", entry_id: null }))).toBe(403);
      expect(await status(post("tester", { ...body, username: "tester", entry_id: "187-1" }))).toBe(404);
      expect(await status(post("creator", { ...body, entry_id: "187-99999" }))).toBe(404);
      expect((await database.db.select().from(pendingSubmissions)).length).toBe(before);
    });
  });

  describe("the NoL pages for someone else's notices", () => {
    const page = async (
      username: string,
      path: string,
      params: Record<string, string>,
      loader: (args: LoaderFunctionArgs) => Promise<unknown> = versionsPageLoader,
    ) => {
      try {
        return (await loader({
          request: new Request(`http://localhost${path}`, { headers: { cookie: cookie[username] ?? "" } }),
          params,
          context,
        })) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };

    it("open to an admin with the owner's causes, and closed to another member", async () => {
      const params = { form: "creator", cause: "traffic-stop" };
      const asAdmin = await page("admin", "/nol/creator/traffic-stop?username=creator", params);
      expect(asAdmin.status).toBe(200);
      expect((await asAdmin.json()).owner).toBe("creator");
      expect((await page("member", "/nol/creator/traffic-stop?username=creator", params)).status).toBe(404);
      const list = await page("admin", "/nol/creator?username=creator", { form: "creator" }, causesLoader);
      const body = await list.json();
      expect(body.ownerQuery).toBe("?username=creator");
      expect(body.choices.find((c: { code: string }) => c.code === "TS")).toMatchObject({ enabled: true });
    });
  });

  describe("the step page's answers", () => {
    const open = async (path: string, params: Record<string, string>) => {
      try {
        return (await stepLoader({
          request: new Request(`http://localhost${path}`, { headers: { cookie: cookie.creator! } }),
          params,
          context,
        })) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };

    it("answers a step that does not exist, and an unknown cause, with 404 pages", async () => {
      const bogus = await open("/nol/creator/traffic-stop/bogus?version=x", {
        form: "creator",
        cause: "traffic-stop",
        step: "bogus",
      });
      expect(bogus.status).toBe(404);
      expect(await bogus.json()).toBe("This page could not be found");
      const unknown = await open("/nol/creator/no-such-cause/notice?version=x", {
        form: "creator",
        cause: "no-such-cause",
        step: "notice",
      });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toBe("Unknown cause code");
    });

    it("sends a version to the step it is at, and a page without a version to its cause", async () => {
      const params = { form: "creator", cause: "traffic-stop", step: "notice" };
      const elsewhere = await open("/nol/creator/traffic-stop/notice?version=Spring%202026", params);
      expect(elsewhere.status).toBe(302);
      expect(elsewhere.headers.get("location")).toMatch(
        /^\/nol\/creator\/traffic-stop\/[a-z-]+\?version=Spring%202026$/,
      );
      const noVersion = await open("/nol/creator/traffic-stop/notice", params);
      expect(noVersion.headers.get("location")).toBe("/nol/creator/traffic-stop");
    });

    it("sends a blank or too long version name back to its cause, whose new version form says why", async () => {
      const params = { form: "creator", cause: "traffic-stop", step: "notice" };
      const blank = await open("/nol/creator/traffic-stop/notice?version=%20", params);
      expect(blank.status).toBe(302);
      expect(blank.headers.get("location")).toBe("/nol/creator/traffic-stop?version=+");
      const long = "x".repeat(121);
      const tooLong = await open(`/nol/creator/traffic-stop/notice?version=${long}`, params);
      expect(tooLong.headers.get("location")).toBe(`/nol/creator/traffic-stop?version=${long}`);
      for (const [search, message, value] of [
        ["?version=+", "Name this version", " "],
        [`?version=${long}`, "Use at most 120 characters", long],
      ] as const) {
        const page = (await versionsPageLoader({
          request: new Request(`http://localhost/nol/creator/traffic-stop${search}`, {
            headers: { cookie: cookie.creator! },
          }),
          params: { form: "creator", cause: "traffic-stop" },
          context,
        })) as Response;
        expect((await page.json()).badVersion).toEqual({ value, message });
      }
      const plain = (await versionsPageLoader({
        request: new Request("http://localhost/nol/creator/traffic-stop", { headers: { cookie: cookie.creator! } }),
        params: { form: "creator", cause: "traffic-stop" },
        context,
      })) as Response;
      expect((await plain.json()).badVersion).toBeNull();
    });
    it("starts a new version's first notice from an earlier version's answers, saving nothing until it is saved", async () => {
      const params = { form: "creator", cause: "traffic-stop", step: "notice" };
      const causePage = (await versionsPageLoader({
        request: new Request("http://localhost/nol/creator/traffic-stop", { headers: { cookie: cookie.creator! } }),
        params: { form: "creator", cause: "traffic-stop" },
        context,
      })) as Response;
      expect((await causePage.json()).reusable).toContain("Spring 2026");
      const before = await database.db.select().from(nolEntries).where(eq(nolEntries.userId, ids.creator!));
      const copied = await open("/nol/creator/traffic-stop/notice?version=Autumn%202026&from=Spring%202026", params);
      expect(copied.status).toBe(200);
      const page = await copied.json();
      expect(page.prefill).toMatchObject({ claimantName: "Cara Creator", dailyAmount: "250" });
      expect(page.respondents[1]).toEqual({ name: "Officer Example", type: "Official", address: "" });
      expect(page.notices).toEqual([
        {
          kind: "success",
          message:
            "Copied from “Spring 2026”: the claimant's name, the daily amount and 1 respondent (Officer Example). Change anything before you save; nothing is saved until you do.",
        },
      ]);
      expect(await database.db.select().from(nolEntries).where(eq(nolEntries.userId, ids.creator!))).toEqual(before);

      // A version with no answers to copy says so; a version that has answers of its own keeps them.
      const none = await (
        await open("/nol/creator/traffic-stop/notice?version=Autumn%202026&from=Nowhere", params)
      ).json();
      expect(none.notices).toEqual([{ kind: "warn", message: "“Nowhere” has no answers to copy." }]);
      expect(none.respondents).toEqual({});
      const blank = await (
        await open("/nol/creator/traffic-stop/notice?version=Autumn%202026&from=%20", params)
      ).json();
      expect(blank.notices).toEqual([]);
    });
  });

  describe("the built-in forms through the steps", () => {
    // On PGlite transactions run one at a time, so this checks the re-read inside the
    // transaction; on PostgreSQL (CI sets TEST_DATABASE_URL) it also checks the advisory lock.
    it("saves a step once when the same submit arrives several times at once", async () => {
      const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
      const notice = () =>
        submitDated(context.app!, viewer, viewer.member, {
          causeCode: "TS",
          version: "Double Click",
          kind: "notice",
          form: formOf({ claimantName: "Cara Creator", dailyAmount: "250", r1Name: "Officer Example" }),
        });
      const results = await Promise.allSettled([notice(), notice(), notice(), notice()]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(results.flatMap((r) => (r.status === "rejected" ? [(r.reason as DomainError).status] : []))).toEqual([
        409, 409, 409,
      ]);
      const rows = (await entriesOf(database.db, ids.creator!, "TS")).filter(
        (r) => r.descriptiveVersion === "Double Click",
      );
      expect(rows).toHaveLength(1);
      const open = await database.db
        .select()
        .from(pendingSubmissions)
        .where(and(eq(pendingSubmissions.descriptiveVersion, "Double Click"), isNull(pendingSubmissions.resolvedAt)));
      expect(open).toHaveLength(0);
    });

    it("walks a version from round 1 mailing to the second true bill", async () => {
      const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
      const step = async () => versionState(await entriesOf(database.db, ids.creator!, "TS"), "Spring 2026").step.label;
      const attempt = (kind: Parameters<typeof submitStep>[3]["kind"], values: Record<string, string>) =>
        submitDated(context.app!, viewer, viewer.member, {
          causeCode: "TS",
          version: "Spring 2026",
          kind,
          form: formOf(values),
        });
      const submit = async (kind: Parameters<typeof submitStep>[3]["kind"], values: Record<string, string>) => {
        await expect(attempt(kind, values), `${kind} ${JSON.stringify(values)}`).resolves.toMatchObject({
          entryId: expect.any(String),
        });
      };
      const mailing = { mailingDate: "2026-03-01", track1: "RR123456789US", track9: "9400100000000000000000" };
      expect(await step()).toBe("Round 1 Mailing");
      const impossible = attempt("mailing", { ...mailing, mailingDate: "2026-02-30" });
      await expect(impossible).rejects.toMatchObject({
        status: 400,
        fieldErrors: { mailingDate: ["Enter a real date"] },
      });
      // Round 1 names one respondent: one envelope, one tracking number, asked for by its slot.
      const unnumbered = attempt("mailing", { mailingDate: "2026-03-01", trackingNumber: "RR123456789US" });
      await expect(unnumbered).rejects.toMatchObject({
        status: 400,
        fieldErrors: { track1: ["Enter the tracking number"] },
      });
      await submit("mailing", { ...mailing, track1: "rr 123-456-789 us" });
      expect(await step()).toBe("Round 1 Proof of Delivery");
      const early = attempt("proof", { delivered: "on", deliveredOn: "2026-02-28" });
      await expect(early).rejects.toMatchObject({
        status: 400,
        fieldErrors: { deliveredOn: ["The delivery date cannot be before the mailing date (2026-03-01)"] },
      });
      await submit("proof", { delivered: "on", deliveredOn: "2026-03-05" });
      expect(await step()).toBe("Round 2 Notice of Fault");
      const round1 = versionState(await entriesOf(database.db, ids.creator!, "TS"), "Spring 2026").creator;
      expect(round1?.nolDeliveryDate).toEqual(["2026-03-05"]);
      expect(round1?.mail).toMatchObject({ MailingDate: "2026-03-01", Track1: "RR123456789US" });

      const wrong = attempt("proof", { delivered: "on", deliveredOn: "2026-03-05" });
      await expect(wrong).rejects.toMatchObject({ status: 409 });

      await submit("notice", {
        claimantName: "Cara Creator",
        dailyAmount: "250",
        r9Name: "Second Officer",
        r9Type: "Joinder",
      });
      // Round 2 goes to both respondents: each envelope's number is asked for and kept.
      const oneShort = attempt("mailing", { mailingDate: "2026-03-01", track1: "RR123456789US" });
      await expect(oneShort).rejects.toMatchObject({
        status: 400,
        fieldErrors: { track9: ["Enter the tracking number"] },
      });
      await submit("mailing", mailing);
      const round2 = versionState(await entriesOf(database.db, ids.creator!, "TS"), "Spring 2026");
      expect(round2.creator?.mail).toMatchObject({
        Track2: "RR123456789US",
        Tracking2: { "1": "RR123456789US", "9": "9400100000000000000000" },
      });
      expect(versionTimeline(context.app!.config, {}, round2, new Date()).rows[1]?.tracking).toEqual([
        "RR123456789US",
        "9400100000000000000000",
      ]);
      await submit("proof", { delivered: "on", deliveredOn: "2026-03-05" });
      expect(await step()).toBe("Round 3 Default");
      // Round 3 keeps the respondents named before without retyping them.
      await submit("notice", { claimantName: "Cara Creator", dailyAmount: "250" });
      await submit("mailing", mailing);
      await submit("proof", { delivered: "on", deliveredOn: "2026-03-05" });
      expect(await step()).toBe("Setup Billing");
      await submit("setup-billing", { dailyAmount: "250" });
      expect(await step()).toBe("First True Bill");
      const lines = async () =>
        (
          await nextBillLines(
            database.db,
            versionState(await entriesOf(database.db, ids.creator!, "TS"), "Spring 2026"),
          )
        ).map((l) => `${l.slot} ${l.type} ${l.billed ? "billed" : l.reason}`);
      expect(await lines()).toEqual(["1 Official billed", "9 Joinder billed"]);
      await submit("true-bill", {
        preparationDate: "2026-06-01",
        administrativeJudgment: "10000",
        ...{ status1: "on", continue1: "on", status9: "on", continue9: "on" },
      });
      expect(await step()).toBe("First True Bill Mailing");
      await submit("true-bill-mailing", mailing);
      expect(await step()).toBe("First True Bill Proof of Delivery");
      const billed = versionState(await entriesOf(database.db, ids.creator!, "TS"), "Spring 2026").bills[0];
      expect(billed).toMatchObject({
        billTracking: "RR123456789US",
        data: { tracking: { "1": "RR123456789US", "9": "9400100000000000000000" } },
      });
      await submit("true-bill-proof", { delivered: "on", deliveredOn: "2026-03-05" });
      expect(await step()).toBe("Second True Bill");
      expect(await lines()).toEqual(["1 Official billed", "9 Joinder billed"]);
      // The officer is still liable but not to be billed again; the Joinder party goes on.
      await submit("true-bill", {
        preparationDate: "2026-07-01",
        administrativeJudgment: "12000",
        ...{ status1: "on", status9: "on", continue9: "on" },
      });
      await submit("true-bill-mailing", mailing);
      await submit("true-bill-proof", { delivered: "on", deliveredOn: "2026-03-05" });
      expect(await step()).toBe("Third True Bill");
      expect(await lines()).toEqual(["1 Official ended", "9 Joinder joinder-skip"]);

      const bills = versionState(await entriesOf(database.db, ids.creator!, "TS"), "Spring 2026").bills;
      expect(bills.map((b) => b.tbValue)).toEqual([1, 2]);
      expect(bills.map((b) => b.tbName)).toEqual(["First True Bill", "Second True Bill"]);
      expect(bills[1]!.continueRespondents[0]).toBe(false);
      expect(bills[1]!.respStatus[0]).toBe(true);
      expect(bills[1]!.continueExtraRespondentsR2[0]).toBe(true);
      // 20% of the prior administrative judgment (10,000.00).
      expect(bills[1]).toMatchObject({
        escalationFee: 200_000,
        administrativeJudgment: 1_200_000,
        trueBillTotal: 1_400_000,
        firstTrueBillTotal: 1_000_000,
      });
    });

    it("holds a new round back until the last round's window has closed, unless the member sends it early", async () => {
      const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
      const version = "Window 2026";
      const submit = (kind: Parameters<typeof submitStep>[3]["kind"], values: Record<string, string>) =>
        submitDated(context.app!, viewer, viewer.member, { causeCode: "TS", version, kind, form: formOf(values) });
      const today = new Date().toISOString().slice(0, 10);
      const notice = { claimantName: "Cara Creator", dailyAmount: "250", r1Name: "Officer Example" };
      await submit("notice", notice);
      await submit("mailing", { mailingDate: today, track1: "9400 1000 0000 0000 0000 00" });
      await submit("proof", { delivered: "on", deliveredOn: today });
      // Delivered today: the notice's 21 days run until three weeks from now.
      const state = versionState(await entriesOf(database.db, ids.creator!, "TS"), version);
      const timeline = versionTimeline(context.app!.config, {}, state, new Date());
      const from = new Date(`${today}T00:00:00Z`);
      from.setUTCDate(from.getUTCDate() + 22);
      expect(timeline.next).toEqual({
        round: 2,
        name: "Round 2 Notice of Fault",
        availableOn: from.toISOString().slice(0, 10),
        early: true,
      });
      expect(timeline.rows[0]).toMatchObject({ state: "delivered", tracking: ["9400100000000000000000"] });
      const refused = await submit("notice", { claimantName: "Cara Creator", dailyAmount: "250" }).catch(
        (error: DomainError) => error,
      );
      expect(refused).toMatchObject({
        status: 400,
        fieldErrors: { sendEarly: [expect.stringContaining("Send it early anyway")] },
      });
      expect(versionState(await entriesOf(database.db, ids.creator!, "TS"), version).step.label).toBe(
        "Round 2 Notice of Fault",
      );
      // A cause's own shorter window, or the member's choice, lets it go.
      expect(
        versionTimeline(context.app!.config, { notice: 1 }, state, new Date(from.getTime() - 20 * 86_400_000)).next
          ?.early,
      ).toBe(false);
      await submit("notice", { claimantName: "Cara Creator", dailyAmount: "250", sendEarly: "on" });
      expect(versionState(await entriesOf(database.db, ids.creator!, "TS"), version).step.label).toBe(
        "Round 2 Mailing",
      );
    });

    it("answers a step's bad input with field errors and saves nothing", async () => {
      const viewer = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
      const refusal = (values: Record<string, string>) =>
        submitDated(context.app!, viewer, viewer.member, {
          causeCode: "TS",
          version: "Another version",
          kind: "notice",
          form: formOf(values),
        }).then(
          () => expect.unreachable("the step was saved"),
          (error: DomainError) => error,
        );
      const result = await refusal({ claimantName: "", dailyAmount: "lots" });
      expect(result.status).toBe(400);
      expect(Object.keys(result.fieldErrors ?? {}).sort()).toEqual(["claimantName", "dailyAmount"]);
      const unnamed = await refusal({ claimantName: "Cara", dailyAmount: "10" });
      expect(unnamed.fieldErrors).toEqual({ r1Name: ["Name at least one respondent"] });
      const rows = await entriesOf(database.db, ids.creator!, "TS");
      expect(rows.some((r) => r.descriptiveVersion === "Another version")).toBe(false);
    });
  });

  describe("selection and the forms' pages (spec §2.2, §4 'Selection', §5)", () => {
    const versionsPage = async (path: string, params: Record<string, string>, extraCookie = "") => {
      const response = (await versionsPageLoader({
        request: new Request(`http://localhost${path}`, {
          headers: { cookie: [cookie.creator, extraCookie].filter(Boolean).join("; ") },
        }),
        params,
        context,
      })) as Response;
      return { response, body: await response.json() };
    };
    type Version = {
      version: string;
      selected: boolean;
      nextHref: string | null;
      entries: { id: string; editLink: string | null; viewLink: string }[];
    };
    const spring = (body: { versions: Version[] }) => body.versions.find((v) => v.version === "Spring 2026")!;
    const creatorPage = { form: "creator", cause: "traffic-stop" };

    it("selects the one entry whose edit or view link matches the href, and remembers it for 'back'", async () => {
      const { body: plain } = await versionsPage("/nol/creator/traffic-stop", creatorPage);
      expect(plain.versions.some((v: Version) => v.selected)).toBe(false);
      const entry = spring(plain).entries[0]!;
      const href = encodeURIComponent(entry.viewLink);
      const { response, body } = await versionsPage(`/nol/creator/traffic-stop?href=${href}`, creatorPage);
      expect(spring(body).selected).toBe(true);
      expect(body.selectionNotice).toBeNull();
      // A built-in entry has no edit link of its own, and the NoL Creator entry is read-only.
      expect(spring(body).entries.filter((e: { editLink: string | null }) => e.editLink)).toEqual([]);
      const remembered = response.headers.get("set-cookie")!.split(";")[0]!;
      const { body: back } = await versionsPage("/nol/creator/traffic-stop?auto=back", creatorPage, remembered);
      expect(spring(back).selected).toBe(true);
      const { response: cleared, body: never } = await versionsPage(
        "/nol/creator/traffic-stop?auto=never",
        creatorPage,
        remembered,
      );
      expect(never.versions.some((v: Version) => v.selected)).toBe(false);
      // Clearing forgets the selection, so "back" finds nothing afterwards.
      expect(cleared.headers.get("set-cookie")).toMatch(/^mh_nol_selected=;.*Max-Age=0/);
    });

    it("sends a step that was already taken back to the version with a message, not an error", async () => {
      const response = (await stepAction({
        request: new Request("http://localhost/nol/creator/traffic-stop/proof", {
          method: "POST",
          body: new URLSearchParams({ version: "Spring 2026", delivered: "on" }),
          headers: { cookie: cookie.creator! },
        }),
        params: { form: "creator", cause: "traffic-stop", step: "proof" },
        context,
      })) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/nol/creator/traffic-stop");
      expect(response.headers.get("set-cookie")).toContain("mh_flash=");
    });

    it("clears the selection when no single entry matches", async () => {
      const { body } = await versionsPage(
        `/nol/creator/traffic-stop?href=${encodeURIComponent("#no-such-hash")}`,
        creatorPage,
      );
      expect(body.versions.some((v: Version) => v.selected)).toBe(false);
      expect(body.selectionNotice).toBe("No single notice matches that link, so nothing is selected.");
    });

    it("offers a new true bill on the billing form only while no bill is selected", async () => {
      const billing = { form: "NoLBilling", cause: "traffic-stop" };
      const { body } = await versionsPage("/nol/NoLBilling/traffic-stop", billing);
      const version = spring(body);
      expect(version.entries.map((e) => e.id)).toHaveLength(2);
      expect(version.nextHref).toMatch(/^\/nol\/NoLBilling\/traffic-stop\/true-bill\?version=/);
      const bill = encodeURIComponent(version.entries[1]!.viewLink);
      const { body: selected } = await versionsPage(`/nol/NoLBilling/traffic-stop?href=${bill}`, billing);
      expect(spring(selected).selected).toBe(true);
      expect(spring(selected).nextHref).toBeNull();
      // The billing-profile form lists the profile only and leaves the true bill to the creator.
      const { body: profile } = await versionsPage("/nol/NoLProfileBilling/traffic-stop", {
        form: "NoLProfileBilling",
        cause: "traffic-stop",
      });
      expect(spring(profile).entries).toHaveLength(1);
      expect(spring(profile).nextHref).toBeNull();
    });
  });
});
