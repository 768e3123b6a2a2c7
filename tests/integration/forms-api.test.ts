import type { AppLoadContext } from "@remix-run/node";
import { desc, eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formEntries, mailOutbox, supportRequests, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { remoteFormsService } from "~/lib/forms-client";
import { apiInit, BOTH_BODIES_MESSAGE } from "~/lib/api-client";
import { action as indexAction, loader as indexLoader } from "~/routes/api.forms._index";
import { action as entryAction, loader as entryLoader } from "~/routes/api.forms.entries.$entryId";
import { action as listAction, loader as listLoader } from "~/routes/api.forms.entries._index";
import { loader as seamlessLoader } from "~/routes/nol.seemless.($formId).$formHash";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";
import { mockServer } from "../mocks/server";

type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** The second forms service (spec §7) at config's formsUrl: a member's own entries, on both drivers. */
describe.each(drivers)("the forms service (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const cookie: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await database.db.select().from(users)) {
      const session = await createSession(database.db, u.id);
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(session.id);
    }
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function call(
    route: Route,
    method: string,
    path: string,
    options: { as?: string; body?: unknown; params?: Record<string, string> } = {},
  ) {
    let response: Response;
    try {
      response = (await route({
        request: new Request(`http://localhost${path}`, {
          method,
          headers: { cookie: options.as ? (cookie[options.as] ?? "") : "", "content-type": "application/json" },
          ...(options.body === undefined
            ? {}
            : { body: typeof options.body === "string" ? options.body : JSON.stringify(options.body) }),
        }),
        params: options.params ?? {},
        context,
      })) as Response;
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  }

  const create = (as: string, body: unknown) => call(listAction, "POST", "/api/forms/entries", { as, body });
  const entry = (method: string, id: string, as: string, body?: unknown) =>
    call(method === "GET" ? entryLoader : entryAction, method, `/api/forms/entries/${id}`, {
      as,
      body,
      params: { entryId: id },
    });

  it("keeps a member's entry: created, read, listed, changed and deleted by its owner only", async () => {
    const made = await create("member", { form: 207, data: { respondentName: "Clerk Example", reason: "New" } });
    expect(made.status).toBe(201);
    expect(made.body.entry).toMatchObject({ form: 207, data: { respondentName: "Clerk Example" } });
    expect(made.headers.get("state")).toBeTruthy();
    const id = made.body.entry.id as string;

    expect((await entry("GET", id, "member")).body.entry.id).toBe(id);
    const listed = await call(listLoader, "GET", "/api/forms/entries?form=207", { as: "member" });
    expect(listed.body.list.map((e: { id: string }) => e.id)).toContain(id);
    const all = await call(listLoader, "GET", "/api/forms/entries", { as: "member" });
    expect(all.body.list.map((e: { id: string }) => e.id)).toContain(id);

    // Another member, and an admin, see nothing of it: the same 404 as a missing entry.
    for (const as of ["creator", "admin"]) {
      expect((await entry("GET", id, as)).status).toBe(404);
      expect((await entry("PUT", id, as, { data: { reason: "Mine now" } })).status).toBe(404);
      expect((await entry("DELETE", id, as)).status).toBe(404);
      const theirs = await call(listLoader, "GET", "/api/forms/entries", { as });
      expect(theirs.body.list.map((e: { id: string }) => e.id)).not.toContain(id);
    }

    const changed = await entry("PUT", id, "member", { data: { respondentName: "Clerk Example", reason: "Moved" } });
    expect(changed.body.entry.data).toEqual({ respondentName: "Clerk Example", reason: "Moved" });
    expect((await entry("DELETE", id, "member")).body).toEqual({ deleted: true });
    expect((await entry("GET", id, "member")).status).toBe(404);
    expect(await database.db.select().from(formEntries).where(eq(formEntries.id, id))).toEqual([]);
  });

  it("gives each entry edit and view links of the NoL entries' shape, opened by its owner and admins only", async () => {
    const made = await create("member", {
      form: 218,
      data: { notice: "TS · v1 · First Notice", change: "The address" },
    });
    const {
      id,
      edit_link: editLink,
      view_link: viewLink,
    } = made.body.entry as {
      id: string;
      edit_link: string;
      view_link: string;
    };
    for (const link of [editLink, viewLink]) {
      expect(link).toMatch(new RegExp(`^/nol/seemless/218/[^/?]{31,}%2A\\?entry=`));
      expect(new URL(link, "http://localhost").searchParams.get("entry")).toBe(JSON.stringify({ EntryId: id }));
    }
    expect(editLink).not.toBe(viewLink);
    const open = (link: string, as: string) => {
      const url = new URL(link, "http://localhost");
      const [, , , formId, formHash] = url.pathname.split("/");
      return call(seamlessLoader, "GET", `${url.pathname}${url.search}`, {
        as,
        params: { formId: formId!, formHash: decodeURIComponent(formHash!) },
      });
    };
    for (const as of ["member", "admin"]) {
      const page = await open(viewLink, as);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ kind: "form", title: expect.stringMatching(/^Notice of correction #\d+$/) });
      expect(page.body.fields).toContainEqual({ key: "change", label: "Change", value: "The address" });
    }
    expect((await open(editLink, "member")).status).toBe(200);
    // Another member, a wrong hash and another entry's id are the same 404.
    expect((await open(viewLink, "creator")).status).toBe(404);
    expect(
      (await open(viewLink.replace(/seemless\/218\/[^/?]+/, `seemless/218/${"x".repeat(32)}%2A`), "member")).status,
    ).toBe(404);
    const other = await create("member", { form: 218, data: { change: "Another" } });
    expect((await open(viewLink.replace(id, other.body.entry.id as string), "member")).status).toBe(404);
  });

  it("refuses a visitor (401) and a member still in setup (403)", async () => {
    expect((await call(listLoader, "GET", "/api/forms/entries")).status).toBe(401);
    expect((await create("newbie", { form: 207, data: {} })).status).toBe(403);
  });

  it("answers 'Unknown key' for a key the call does not take, and changes nothing", async () => {
    const before = (await database.db.select().from(formEntries)).length;
    const extra = await create("member", { form: 207, data: {}, owner: "admin" });
    expect(extra).toMatchObject({ status: 400, body: { error: "Unknown key" } });
    const query = await call(listLoader, "GET", "/api/forms/entries?form=207&user=admin", { as: "member" });
    expect(query).toMatchObject({ status: 400, body: { error: "Unknown key" } });
    expect((await database.db.select().from(formEntries)).length).toBe(before);
  });

  it("answers 'missing: path' at the service's own address", async () => {
    expect(await call(indexLoader, "GET", "/api/forms", { as: "member" })).toMatchObject({
      status: 400,
      body: { error: "missing: path" },
    });
    expect((await call(indexAction, "POST", "/api/forms", { as: "member", body: {} })).body.error).toBe(
      "missing: path",
    );
  });

  it("refuses bad input with field errors: no such form, a NoL form, bad data, not JSON, another method", async () => {
    expect((await create("member", { form: 999, data: {} })).body.fieldErrors).toEqual({
      form: ["There is no form 999"],
    });
    expect((await create("member", { form: 187, data: {} })).body.fieldErrors.form).toEqual([
      "Form 187 is filled in on the notice creator's pages",
    ]);
    expect((await create("member", { form: 207, data: { "bad key": 1 } })).status).toBe(400);
    expect((await create("member", { form: 207, data: { nested: { deep: true } } })).status).toBe(400);
    expect((await create("member", { form: "207", data: {} })).status).toBe(400);
    expect((await create("member", "not json")).status).toBe(400);
    expect((await call(listAction, "PATCH", "/api/forms/entries", { as: "member" })).status).toBe(405);
    expect((await entry("GET", "not-an-id", "member")).status).toBe(404);
  });

  it("sends form 255 to the support inbox and the admins' list, checked as the support form is", async () => {
    const refused = await create("member", { form: 255, data: { subject: "", message: "x" } });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors["data.subject"]).toEqual(["Say what it is about"]);

    const sent = await create("member", { form: 255, data: { subject: "Help with round 2", message: "Where next?" } });
    expect(sent.status).toBe(201);
    expect(sent.body.entry).toMatchObject({ form: 255, data: { subject: "Help with round 2", source: "Member Site" } });
    const [request] = await database.db
      .select()
      .from(supportRequests)
      .orderBy(desc(supportRequests.createdAt))
      .limit(1);
    expect(request).toMatchObject({ subject: "Help with round 2", email: "member@memberhall.example" });
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, context.app!.config.supportEmail))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    expect(mail?.subject).toMatch(/Help with round 2$/);
    // A sent request stays as it was sent.
    expect((await entry("PUT", sent.body.entry.id, "member", { data: { subject: "x" } })).status).toBe(400);
  });
});

describe("the forms client against an outside forms service", () => {
  const BASE = "https://forms.example.org/api/forms";

  it("makes the same calls at the outside address, with JSON bodies and no state headers", async () => {
    const seen: { method: string; path: string; search: string; body: unknown; state: string | null }[] = [];
    const stored = { id: "3f1d7a52-6c3e-4d4b-9d0e-2f1a5b6c7d8e", form: 207, number: 1, data: { a: 1 } };
    mockServer.use(
      http.all(`${BASE}/entries*`, async ({ request }) => {
        const url = new URL(request.url);
        const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.text();
        seen.push({
          method: request.method,
          path: url.pathname,
          search: url.search,
          body: text ? JSON.parse(text) : null,
          state: request.headers.get("state"),
        });
        if (request.method === "DELETE") return HttpResponse.json({ deleted: true });
        if (url.pathname.endsWith("/entries") && request.method === "GET") return HttpResponse.json({ list: [stored] });
        return HttpResponse.json({ entry: stored }, { status: request.method === "POST" ? 201 : 200 });
      }),
    );
    const forms = remoteFormsService(BASE);
    expect((await forms.list(207)).data?.list).toEqual([stored]);
    expect((await forms.create(207, { a: 1 })).data?.entry).toEqual(stored);
    expect((await forms.get(stored.id)).data?.entry.id).toBe(stored.id);
    expect((await forms.update(stored.id, { a: 2 })).status).toBe(200);
    expect((await forms.remove(stored.id)).data).toEqual({ deleted: true });
    expect(seen.map((s) => `${s.method} ${s.path}${s.search}`)).toEqual([
      "GET /api/forms/entries?form=207",
      "POST /api/forms/entries",
      `GET /api/forms/entries/${stored.id}`,
      `PUT /api/forms/entries/${stored.id}`,
      `DELETE /api/forms/entries/${stored.id}`,
    ]);
    expect(seen[1]!.body).toEqual({ form: 207, data: { a: 1 } });
    expect(seen[3]!.body).toEqual({ data: { a: 2 } });
    expect(seen.every((s) => s.state === null)).toBe(true);
  });

  it("ignores a 404 without a state header, keeps an error field, and refuses both bodies at once", async () => {
    mockServer.use(
      http.get(`${BASE}/entries/gone`, () => HttpResponse.json({ error: "No such entry" }, { status: 404 })),
      http.get(`${BASE}/entries/refused`, () =>
        HttpResponse.json({ error: "No such entry" }, { status: 404, headers: { state: "s", "state-hash": "h" } }),
      ),
    );
    const forms = remoteFormsService(BASE);
    expect(await forms.get("gone")).toEqual({ data: null, error: null, status: 404, ignored: true });
    expect(await forms.get("refused")).toMatchObject({ error: "No such entry", ignored: false });
    // Every request is built through the client's conventions: an object and a raw body never go together.
    expect(() => apiInit({ body: {}, raw: "x" })).toThrow(BOTH_BODIES_MESSAGE);
  });
});
