import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formEntries, mailOutbox, nolEntries, supportRequests, webhookEvents } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { seamlessEmbed } from "~/lib/seamless-embed";
import { CognitoError, cognitoForms, fetchCognitoEntry } from "~/providers/forms/cognito.server";
import { action as webhookAction } from "~/routes/api.forms.cognito.$secret.$event";
import { action as stepAction, loader as stepLoader } from "~/routes/nol.$form.$cause.$step";
import { siteCookies } from "~/services/session.server";
import { authEntry } from "~/services/nol/access.server";
import { memberVersions } from "~/services/nol/member-versions.server";
import { supportEmbed } from "~/services/hosted-support.server";
import { reviewQueue, suggestRespondent } from "~/services/respondents.server";
import type { Viewer } from "~/services/session.server";
import { submitSupportRequest } from "~/services/support.server";
import { testContext } from "../helpers/context";
import { createSession } from "../helpers/users";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { COGNITO_KEY, COGNITO_URL, cognitoEntries } from "../mocks/cognito";

const SECRET = "cognito-webhook-secret-0123456789abcdef";
const settings = { apiUrl: COGNITO_URL, apiKey: COGNITO_KEY };

let creatorHash = "";

function nolEntry(version: number, overrides: Record<string, unknown> = {}) {
  return {
    Hash: creatorHash,
    Id: "187-41",
    Form: { Id: "187", InternalName: "NoLCreator2", Name: "NoL Creator 2" },
    Entry: {
      Number: 41,
      Version: version,
      DateCreated: "2026-05-01T10:00:00Z",
      DateUpdated: "2026-05-02T10:00:00Z",
      EditLink: "https://www.cognitoforms.com/community/nolcreator2/41#editaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa*",
      ViewLink: "https://www.cognitoforms.com/community/nolcreator2/41#viewaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa*",
    },
    Username: "creator",
    Cause: "TS",
    DescriptiveVersion: " County court 2026 ",
    Round: 1,
    NolTracking: [true],
    NolMailingDate: [null],
    NolProofOfDelivery: [false],
    ...overrides,
  };
}

describe("Cognito Forms adapter (contract, against msw)", () => {
  beforeEach(() => cognitoEntries.clear());

  it("creates an entry through the API and reads it back", async () => {
    const created = await cognitoForms(settings).submit({
      formId: 255,
      userId: null,
      data: { Email: "a@example.org", Message: "Hi" },
    });
    expect(created).toMatchObject({ id: "255-1", formId: 255, entryNumber: 1 });
    expect(created.editHash).toMatch(/^e{32}1\*$/);
    const read = await fetchCognitoEntry(settings, 255, created.id);
    expect(read).toMatchObject({ Id: "255-1", Entry: { Number: 1, Version: 1 } });
  });

  it("turns Cognito's errors into CognitoError with its message", async () => {
    await expect(fetchCognitoEntry(settings, 187, "187-999")).rejects.toMatchObject({
      status: 404,
      message: "Entry not found.",
    });
    await expect(fetchCognitoEntry({ ...settings, apiKey: "wrong" }, 187, "187-1")).rejects.toBeInstanceOf(
      CognitoError,
    );
  });
});

describe("the seamless embed", () => {
  it("names the script, key and form, and carries the JSON prefill safely into a script", () => {
    const embed = seamlessEmbed({ apiUrl: "https://www.cognitoforms.com", embedKey: "k" }, 187, {
      Note: "</script><script>alert(1)",
    });
    expect(embed).toMatchObject({ scriptSrc: "https://www.cognitoforms.com/f/seamless.js", key: "k", formId: 187 });
    expect(embed.entry).not.toContain("</script>");
    expect(JSON.parse(embed.entry)).toEqual({ Note: "</script><script>alert(1)" });
  });
});

describe("Cognito webhooks", () => {
  let database: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database, {
      FORMS: "cognito",
      COGNITO_API_URL: COGNITO_URL,
      COGNITO_API_KEY: COGNITO_KEY,
      COGNITO_EMBED_KEY: "embed-key",
      COGNITO_WEBHOOK_SECRET: SECRET,
    });
    const creator = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "creator") }))!;
    creatorHash = authEntry(context.app!, creator).hash!;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const post = (event: string, body: unknown, secret = SECRET) =>
    webhookAction({
      request: new Request(`http://localhost/api/forms/cognito/${secret}/${event}`, {
        method: "POST",
        body: typeof body === "string" ? body : JSON.stringify(body),
        headers: { "content-type": "application/json" },
      }),
      params: { secret, event },
      context,
    }) as Promise<Response>;

  it("maps a submitted entry to a member version", async () => {
    const response = await post("submit", nolEntry(1));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ entryId: "187-41", duplicate: false });
    const [row] = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-41"));
    expect(row).toMatchObject({
      form: "NoLCreator2",
      formId: 187,
      entryNumber: 41,
      causeCode: "TS",
      descriptiveVersion: "County court 2026",
      nolTracking: [true],
    });
    const owner = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "creator") }))!;
    const versions = await memberVersions(context.app!, owner, { cause: "TS", id: null });
    expect(versions.list[0]).toMatchObject({ id: "187-41", edit_link: expect.stringContaining("#edit") });
  });

  it("changes nothing when the same entry is posted twice", async () => {
    const before = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-41"));
    const again = await post("submit", nolEntry(1, { NolMailingDate: ["2030-01-01"] }));
    expect(await again.json()).toEqual({ entryId: "187-41", duplicate: true });
    const after = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-41"));
    expect(after[0]!.nolMailingDate).toEqual(before[0]!.nolMailingDate);
    expect(await database.db.select().from(webhookEvents)).toHaveLength(1);
  });

  it("refuses an entry for a cause that is not open to its member, and handles two first deliveries at once", async () => {
    const beta = await post("submit", nolEntry(1, { Id: "187-60", Cause: "MC" }));
    expect(beta.status).toBe(422);
    expect(await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-60"))).toHaveLength(0);
    const both = await Promise.all([
      post("submit", nolEntry(1, { Id: "187-61", Entry: { ...nolEntry(1).Entry, Number: 61 } })),
      post("update", nolEntry(2, { Id: "187-61", Entry: { ...nolEntry(2).Entry, Number: 61 } })),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const rows = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-61"));
    expect(rows).toHaveLength(1);
  });

  it("never hands an existing entry to another member, nor overwrites a built-in one", async () => {
    const tester = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "tester") }))!;
    const testerHash = authEntry(context.app!, tester).hash!;
    const stolen = await post("update", nolEntry(9, { Username: "tester", Hash: testerHash }));
    expect(stolen.status).toBe(409);
    const [row] = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-41"));
    expect(row!.userId).not.toBe(tester.id);

    const creator = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "creator") }))!;
    await database.db.insert(nolEntries).values({
      id: "187-900",
      form: "NoLCreator2",
      formId: 187,
      entryNumber: 900,
      userId: creator.id,
      causeCode: "TS",
      descriptiveVersion: "Built in",
      editHash: "e".repeat(31) + "*",
      viewHash: "v".repeat(31) + "*",
    });
    const overBuiltIn = await post("submit", nolEntry(1, { Id: "187-900" }));
    expect(overBuiltIn.status).toBe(409);
    const [builtIn] = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-900"));
    expect(builtIn!.descriptiveVersion).toBe("Built in");
  });

  it("maps a true bill's fields, and refuses one without its value or with an impossible date", async () => {
    const bill = (overrides: Record<string, unknown>) =>
      nolEntry(1, {
        Id: "194-7",
        Form: { Id: "194", InternalName: "NoLBilling", Name: "NoL Billing" },
        Entry: { ...nolEntry(1).Entry, Number: 7 },
        TbValue: 1,
        TbName: "First True Bill",
        PreparationDate: "2026-06-01",
        BillMailingDate: "2026-06-03",
        AdministrativeJudgment: 1000,
        EscalationFee: 0,
        TrueBillTotal: 1000,
        FirstTrueBillTotal: 1000,
        ContinueRespondents: [true, false],
        RespStatus: [true, true],
        Profile: { DailyAmount: 250 },
        ...overrides,
      });
    expect((await post("submit", bill({ TbValue: null }))).status).toBe(400);
    expect((await post("submit", bill({ BillMailingDate: "2026-02-30" }))).status).toBe(400);
    expect(await database.db.select().from(nolEntries).where(eq(nolEntries.id, "194-7"))).toHaveLength(0);
    const response = await post("submit", bill({}));
    expect(response.status).toBe(200);
    const [row] = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "194-7"));
    expect(row).toMatchObject({
      form: "NoLBilling",
      tbValue: 1,
      tbName: "First True Bill",
      preparationDate: "2026-06-01",
      billMailingDate: "2026-06-03",
      administrativeJudgment: 100_000,
      firstTrueBillTotal: 100_000,
      continueRespondents: [true, false],
      respStatus: [true, true],
      profile: { DailyAmount: 250 },
    });
  });

  it("fills each step in the hosted form of its form id, prefilled, and takes no entry from the page itself", async () => {
    const creator = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "creator") }))!;
    const cookie = await siteCookies(context.app!.config).session.serialize(
      (await createSession(database.db, creator.id)).id,
    );
    const stepPage = async (step: string, version: string) =>
      (await (
        (await stepLoader({
          request: new Request(
            `http://localhost/nol/creator/traffic-stop/${step}?version=${encodeURIComponent(version)}`,
            {
              headers: { cookie },
            },
          ),
          params: { form: "creator", cause: "traffic-stop", step },
          context,
        })) as Response
      ).json()) as {
        hosted:
          | { kind: "embed"; embed: { formId: number; entry: string }; pending: { entry_id: string | null } }
          | { kind: "edit"; editLink: string | null };
      };

    const first = (await stepPage("notice", "A new version")).hosted;
    if (first.kind !== "embed") throw new Error("a new version opens the embed");
    expect(first.embed.formId).toBe(187);
    expect(JSON.parse(first.embed.entry)).toMatchObject({
      Username: "creator",
      Cause: "TS",
      DescriptiveVersion: "A new version",
      EntryType: "Continue with Round",
      Hash: creatorHash,
    });
    expect(first.pending.entry_id).toBeNull();

    // Progress on an existing entry is recorded in that entry, through its own edit link.
    const mailing = await stepPage("mailing", "County court 2026");
    expect(mailing.hosted).toEqual({ kind: "edit", editLink: nolEntry(1).Entry.EditLink });

    const posted = (await stepAction({
      request: new Request("http://localhost/nol/creator/traffic-stop/notice", {
        method: "POST",
        body: new URLSearchParams({ version: "A new version", claimantName: "C", dailyAmount: "1", r1Name: "X" }),
        headers: { cookie },
      }),
      params: { form: "creator", cause: "traffic-stop", step: "notice" },
      context,
    })) as Response;
    expect(posted.status).toBe(409);
    const rows = await database.db.select().from(nolEntries).where(eq(nolEntries.descriptiveVersion, "A new version"));
    expect(rows).toHaveLength(0);
  });

  it("applies an update with a newer version, and ignores an older one delivered late", async () => {
    await post("update", nolEntry(3, { NolMailingDate: ["2026-05-10"] }));
    await post("update", nolEntry(2, { NolMailingDate: ["1999-01-01"] }));
    const [row] = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "187-41"));
    expect(row!.nolMailingDate).toEqual(["2026-05-10"]);
  });

  it("answers a wrong secret or event with 404 and stores nothing", async () => {
    const count = (await database.db.select().from(webhookEvents)).length;
    expect((await post("submit", nolEntry(9), "x".repeat(SECRET.length))).status).toBe(404);
    expect((await post("delete", nolEntry(9))).status).toBe(404);
    expect((await database.db.select().from(webhookEvents)).length).toBe(count);
  });

  it.each([
    ["not JSON", "{oops", 400],
    ["not an entry", { hello: "world" }, 400],
    ["an entry without NoL fields", { ...nolEntry(10), Username: undefined }, 400],
    ["an unknown member", nolEntry(11, { Username: "ghost" }), 422],
    ["an unknown cause", nolEntry(12, { Cause: "ZZZ" }), 404],
    ["a form that is not a NoL form", { ...nolEntry(13), Id: "92-1" }, 422],
    ["an entry filed under another member without their hash", nolEntry(14, { Username: "tester" }), 422],
    ["an entry without the auth hash", nolEntry(15, { Hash: undefined }), 422],
  ] as const)("answers %s with %i", async (_what, body, status) => {
    expect((await post("submit", body)).status).toBe(status);
  });

  it.each([
    ["Number", "187-70", { Number: 2 ** 31 }],
    ["Version", "187-71", { Number: 71, Version: 2 ** 31 }],
    ["Number", "187-72", { Number: 1e300 }],
  ] as const)(
    "refuses an entry whose %s does not fit a database integer with 400 and stores nothing",
    async (field, id, meta) => {
      const events = (await database.db.select().from(webhookEvents)).length;
      const response = await post("submit", nolEntry(1, { Id: id, Entry: { ...nolEntry(1).Entry, ...meta } }));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; fieldErrors?: Record<string, string[]> };
      expect(body.fieldErrors?.[`Entry.${field}`]?.[0]).toMatch(/at most 2147483647/);
      expect(await database.db.select().from(nolEntries).where(eq(nolEntries.id, id))).toHaveLength(0);
      expect((await database.db.select().from(webhookEvents)).length).toBe(events);
    },
  );

  it.each([
    ["EditLink", "187-73", "javascript:alert(document.cookie)"],
    ["ViewLink", "187-74", "data:text/html,<script>alert(1)</script>"],
    ["EditLink", "187-75", "http://www.cognitoforms.com/community/nolcreator2/75#edit*"],
  ] as const)(
    "refuses an entry whose %s is not an https: address with 400 and stores nothing",
    async (field, id, link) => {
      const events = (await database.db.select().from(webhookEvents)).length;
      const response = await post(
        "submit",
        nolEntry(1, { Id: id, Entry: { ...nolEntry(1).Entry, Number: Number(id.split("-")[1]), [field]: link } }),
      );
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; fieldErrors?: Record<string, string[]> };
      expect(body.fieldErrors?.[`Entry.${field}`]).toEqual(["must be an https: address"]);
      expect(await database.db.select().from(nolEntries).where(eq(nolEntries.id, id))).toHaveLength(0);
      expect((await database.db.select().from(webhookEvents)).length).toBe(events);
    },
  );

  it("answers an unknown cause as everywhere else: 404 'Unknown cause code'", async () => {
    const response = await post("submit", nolEntry(16, { Cause: "ZZZ" }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Unknown cause code" });
  });

  it("sends support requests to Cognito when it is the forms provider", async () => {
    cognitoEntries.clear();
    expect(context.app!.providers.forms.name).toBe("cognito");
    const result = await submitSupportRequest(
      context.app!,
      { email: "m@example.org", subject: "Hello", message: "A question", source: "Member Site" },
      { userId: null, ip: "192.0.2.90", actor: null },
    );
    expect(result.entryNumber).toBe(1);
    expect(cognitoEntries.get("255-1")).toMatchObject({ email: "m@example.org", source: "Member Site" });
    // Our copy names the hosted entry and keeps its links, for the admins' list.
    const [copy] = await database.db.select().from(formEntries).where(eq(formEntries.hostedId, "255-1"));
    expect(copy).toMatchObject({
      id: result.formEntryId,
      formId: 255,
      entryNumber: 1,
      editLink: expect.stringMatching(/^https:\/\/www\.cognitoforms\.com\/forms\/edit#/),
    });
    const [request] = await database.db
      .select()
      .from(supportRequests)
      .where(eq(supportRequests.formEntryId, result.formEntryId));
    expect(request).toMatchObject({ subject: "Hello" });
  });

  it("files a suggestion through Cognito's API and puts it in the admins' review queue", async () => {
    cognitoEntries.clear();
    const member = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "member") }))!;
    const viewer = { user: member, member, agent: null, session: { ip: "203.0.113.9" } } as unknown as Viewer;
    const made = await suggestRespondent(context.app!, viewer, {
      name: "Hosted Clerk",
      type: "Individual",
      place: "Springfield",
      reason: "Named in my notice",
    });
    expect(made).toEqual({ entryNumber: 1 });
    expect(cognitoEntries.get("207-1")).toMatchObject({ name: "Hosted Clerk" });
    const queue = await reviewQueue(context.app!);
    expect(queue.find((q) => q.data.name === "Hosted Clerk")).toMatchObject({ kind: "suggestion", from: "member" });
  });

  describe("the hosted support form (255)", () => {
    const supportEntry = (number: number, version: number, fields: Record<string, unknown> = {}) => ({
      Id: `255-${number}`,
      Form: { Id: "255", InternalName: "Support", Name: "Support" },
      Entry: {
        Number: number,
        Version: version,
        EditLink: `https://www.cognitoforms.com/shared/support#edit${"a".repeat(30)}${number}*`,
        ViewLink: `https://www.cognitoforms.com/shared/support#view${"a".repeat(30)}${number}*`,
      },
      Email: "visitor@example.org",
      Subject: "Cannot log in",
      Message: "The page says my password is wrong.",
      Source: "Member Site",
      ...fields,
    });
    const requestsOf = (subject: string) =>
      database.db.select().from(supportRequests).where(eq(supportRequests.subject, subject));

    it("joins the support list and the support inbox once, however often it is delivered", async () => {
      const outboxBefore = (await database.db.select().from(mailOutbox)).length;
      const first = await post("submit", supportEntry(900, 1));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ entryId: "255-900", duplicate: false });
      expect(await (await post("submit", supportEntry(900, 1))).json()).toEqual({
        entryId: "255-900",
        duplicate: true,
      });
      // An update of the entry refreshes our copy, and files no second request.
      expect((await post("update", supportEntry(900, 2, { Message: "Solved, thanks." }))).status).toBe(200);
      const requests = await requestsOf("Cannot log in");
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({ email: "visitor@example.org", userId: null, source: "Member Site" });
      const [copy] = await database.db.select().from(formEntries).where(eq(formEntries.hostedId, "255-900"));
      expect(copy!.data).toMatchObject({ message: "Solved, thanks." });
      const mails = (await database.db.select().from(mailOutbox)).slice(outboxBefore);
      expect(mails.filter((m) => m.subject === "Support request #900: Cannot log in")).toHaveLength(1);
    });

    it("names the member only when the prefilled auth hash matches the username", async () => {
      await post("submit", supportEntry(901, 1, { Subject: "Signed hash", Username: "creator", Hash: creatorHash }));
      await post("submit", supportEntry(902, 1, { Subject: "Forged hash", Username: "creator", Hash: "x".repeat(40) }));
      const creator = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "creator") }))!;
      expect((await requestsOf("Signed hash"))[0]!.userId).toBe(creator.id);
      expect((await requestsOf("Forged hash"))[0]!.userId).toBeNull();
    });

    it("refuses a support entry without its fields with field errors, and files nothing", async () => {
      const response = await post("submit", supportEntry(903, 1, { Email: "not an address", Subject: "Bad one" }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ fieldErrors: { email: ["Enter a valid e-mail address"] } });
      expect(await requestsOf("Bad one")).toEqual([]);
    });

    it("is embedded in the footer's modal only with the shared form hash, prefilled for the member", async () => {
      expect(supportEmbed(context.app!, null)).toBeNull();
      const withHash = testContext(database, {
        FORMS: "cognito",
        COGNITO_API_URL: COGNITO_URL,
        COGNITO_API_KEY: COGNITO_KEY,
        COGNITO_EMBED_KEY: "embed-key",
        COGNITO_WEBHOOK_SECRET: SECRET,
        COGNITO_SUPPORT_FORM_HASH: "shared-support-hash",
      }).app!;
      const creator = (await database.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.username, "creator") }))!;
      const embed = supportEmbed(withHash, creator)!;
      expect(embed).toMatchObject({
        scriptSrc: `${COGNITO_URL}/f/seamless.js`,
        key: "shared-support-hash",
        formId: 255,
      });
      expect(JSON.parse(embed.entry)).toEqual({
        Email: creator.email,
        Source: "Member Site",
        Username: "creator",
        Hash: authEntry(withHash, creator).hash,
      });
      expect(JSON.parse(supportEmbed(withHash, null)!.entry)).toEqual({ Email: "", Source: "Member Site" });
    });
  });
});
