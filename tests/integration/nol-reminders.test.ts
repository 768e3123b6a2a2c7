import type { AppLoadContext } from "@remix-run/node";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppServices } from "~/context";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { mailOutbox, nolEntries, nolReminders, reminderOptOuts, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { loader as waitingLoader } from "~/routes/admin_.waiting-rounds";
import { loader as recordsLoader } from "~/routes/db.($entity).($view)";
import { loader as proofLoader } from "~/routes/nol.$form.$cause.proof-of-service[.]pdf";
import { loader as memberLoader } from "~/routes/members.$userId";
import { loader as versionsLoader } from "~/routes/nol.$form.$cause._index";
import { action as profileAction, loader as profileLoader } from "~/routes/profile.notices";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/reminders.unsubscribe";
import { startJobs, type JobRunner } from "~/services/jobs.server";
import type { JobDefinition } from "~/services/queue.server";
import {
  reminderChoices,
  saveReminderChoices,
  sendDueReminders,
  unsubscribeLink,
} from "~/services/nol/reminders.server";
import { submitDated } from "../helpers/steps";
import { waitingRounds, waitingVersionCount } from "~/services/nol/version-timelines.server";
import { loadViewer, siteCookies, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { readPdf } from "../helpers/pdf";
import { createSession } from "../helpers/users";

const form = (values: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) for (const one of [v].flat()) data.append(k, one);
  return data;
};

/** Noon UTC of a day: the sweep's "now", moved by the test. */
const at = (day: string) => new Date(`${day}T12:00:00Z`);

describe.each(drivers)("the NoL reminders on %s", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;
  let viewer: Viewer;
  let creatorCookie: string;

  /** Round 1 of a new version of Traffic Stop (21 days to answer a notice): made, mailed and, when given, delivered. */
  const roundOne = async (version: string, mailedOn: string, deliveredOn?: string) => {
    const submit = (kind: "notice" | "mailing" | "proof", values: Record<string, string>) =>
      submitDated(services, viewer, viewer.member, { causeCode: "TS", version, kind, form: form(values) });
    await submit("notice", {
      claimantName: "Cara Creator",
      dailyAmount: "250",
      r1Name: "Officer Example",
      r1Type: "Official",
    });
    await submit("mailing", { mailingDate: mailedOn, track1: "RR123456789US" });
    if (deliveredOn) await submit("proof", { delivered: "on", deliveredOn });
  };

  const remindersOf = (version: string) =>
    database.db
      .select()
      .from(mailOutbox)
      .where(and(like(mailOutbox.template, "nol-reminder-%"), like(mailOutbox.text, `%"${version}"%`)));

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    services = context.app!;
    const [creator] = await database.db.select().from(users).where(eq(users.username, "creator"));
    const session = await createSession(database.db, creator!.id);
    viewer = (await loadViewer(database.db, session.id))!;
    creatorCookie = await siteCookies(services.config).session.serialize(session.id);
    await roundOne("Delivered", "2026-03-01", "2026-03-05");
    await roundOne("Unproven", "2026-03-01");
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("e-mails each reminder once when its day comes: no proof of delivery after 10 days, then the next round", async () => {
    expect(await sendDueReminders(services, at("2026-03-10"))).toEqual({ sent: 0 });
    expect(await sendDueReminders(services, at("2026-03-20"))).toEqual({ sent: 1 });
    const [noProof] = await remindersOf("Unproven");
    expect(noProof).toMatchObject({
      to: viewer.member.email,
      template: "nol-reminder-no-proof",
      subject: "No proof of delivery yet for your Round 1 Notice of Liability",
      headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    expect(noProof!.text).toContain("was mailed on Mar 1, 2026");
    expect(noProof!.text).toContain(`${services.config.baseUrl}/nol/creator/traffic-stop/proof?version=Unproven`);
    const link = unsubscribeLink(services.config, viewer.member.id, "no-proof");
    expect(noProof!.text).toContain(link);
    expect(noProof!.headers?.["List-Unsubscribe"]).toBe(`<${link}>`);

    // Delivered Mar 5 with 21 days to answer: the window's last day is Mar 26.
    expect(await sendDueReminders(services, at("2026-03-26"))).toEqual({ sent: 0 });
    expect(await sendDueReminders(services, at("2026-03-27"))).toEqual({ sent: 1 });
    expect(await sendDueReminders(services, at("2026-03-28"))).toEqual({ sent: 0 });
    const delivered = await remindersOf("Delivered");
    expect(delivered.map((mail) => mail.subject)).toEqual(["Your Round 2 Notice of Fault can go out now"]);
    expect(delivered[0]!.text).toContain("/nol/creator/traffic-stop/notice?version=Delivered");
    expect(await remindersOf("Unproven")).toHaveLength(1);
  });

  it("sends nothing of a kind the member turned off, and sends it once they turn it on again", async () => {
    await roundOne("Quiet", "2026-05-01");
    await saveReminderChoices(database.db, viewer.member.id, ["next-round", "true-bill"]);
    expect(await reminderChoices(database.db, viewer.member.id)).toEqual({
      "next-round": true,
      "no-proof": false,
      "true-bill": true,
    });
    expect(await sendDueReminders(services, at("2026-05-11"))).toEqual({ sent: 0 });
    expect(await remindersOf("Quiet")).toHaveLength(0);
    await saveReminderChoices(database.db, viewer.member.id, ["next-round", "no-proof", "true-bill"]);
    expect(await sendDueReminders(services, at("2026-05-11"))).toEqual({ sent: 1 });
    expect((await remindersOf("Quiet")).map((mail) => mail.template)).toEqual(["nol-reminder-no-proof"]);
  });

  it("takes back a reminder whose e-mail could not be written, and sends it on the next sweep", async () => {
    await roundOne("Retried", "2026-06-01");
    const failing: AppServices = {
      ...services,
      providers: {
        ...services.providers,
        mail: { ...services.providers.mail, send: () => Promise.reject(new Error("the outbox is gone")) },
      },
    };
    await expect(sendDueReminders(failing, at("2026-06-11"))).rejects.toThrow("the outbox is gone");
    const claimed = await database.db.select().from(nolReminders).where(eq(nolReminders.descriptiveVersion, "Retried"));
    expect(claimed).toHaveLength(0);
    expect(await sendDueReminders(services, at("2026-06-11"))).toEqual({ sent: 1 });
    expect(await remindersOf("Retried")).toHaveLength(1);
  });

  describe("the versions waiting for their next round (the admins' dashboard and list)", () => {
    it("lists a version from the day its window has closed, longest waiting first, and counts them", async () => {
      expect((await waitingRounds(services, at("2026-03-26"))).map((row) => row.version)).not.toContain("Delivered");
      const rows = await waitingRounds(services, at("2026-04-06"));
      expect(rows.find((row) => row.version === "Delivered")).toMatchObject({
        username: "creator",
        cause: "Traffic Stop",
        next: "Round 2 Notice of Fault",
        since: "2026-03-27",
        sinceShown: "Mar 27, 2026",
        days: 10,
        href: "/nol/creator/traffic-stop?username=creator&version=Delivered",
      });
      // Mailed but never delivered: no window has opened, nothing waits.
      expect(rows.map((row) => row.version)).not.toContain("Unproven");
      expect(await waitingVersionCount(services, at("2026-04-06"))).toBe(rows.length);
      expect(rows.map((row) => row.since)).toEqual([...rows.map((row) => row.since)].sort());
    });

    it("shows the list to admins only", async () => {
      const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
      const adminCookie = await siteCookies(services.config).session.serialize(
        (await createSession(database.db, admin!.id)).id,
      );
      const page = (cookie: string) =>
        waitingLoader({
          request: new Request("http://localhost/admin/waiting-rounds", { headers: { cookie } }),
          params: {},
          context,
        }) as Promise<Response>;
      const shown = await page(adminCookie);
      expect(shown.status).toBe(200);
      expect((await shown.json()).rows.map((row: { version: string }) => row.version)).toContain("Delivered");
      await expect(page(creatorCookie)).rejects.toMatchObject({ status: 403 });
    });
  });

  it("shows each version's timeline on the member's notices and, to admins, on the member's page", async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const adminCookie = await siteCookies(services.config).session.serialize(
      (await createSession(database.db, admin!.id)).id,
    );
    const memberPage = (await memberLoader({
      request: new Request(`http://localhost/members/${viewer.member.id}`, { headers: { cookie: adminCookie } }),
      params: { userId: viewer.member.id },
      context,
    })) as Response;
    const notices = (await profileLoader({
      request: new Request("http://localhost/profile/notices", { headers: { cookie: creatorCookie } }),
      params: {},
      context,
    })) as Response;
    type Shown = {
      version: string;
      href: string;
      timeline: { rows: { name: string; state: string; deliveredShown: string | null; tracking: string[] }[] };
    };
    const shownOn = async (response: Response, pick: (body: never) => Shown[]) =>
      pick((await response.json()) as never).find((t) => t.version === "Delivered");
    const onPage = await shownOn(memberPage, (body: { page: { timelines: Shown[] } }) => body.page.timelines);
    const onNotices = await shownOn(notices, (body: { timelines: { versions: Shown[] } }) => body.timelines.versions);
    for (const shown of [onPage, onNotices]) {
      expect(shown?.timeline.rows[0]).toMatchObject({
        name: "Round 1 Notice of Liability",
        state: "delivered",
        deliveredShown: "Mar 5, 2026",
        tracking: ["RR123456789US"],
      });
      expect(shown?.href).toBe("/nol/creator/traffic-stop?version=Delivered&username=creator");
    }
  });

  it("shows a version's timeline on the cause page that names it, and none for a version that is not one", async () => {
    const page = async (query: string) =>
      (await (
        (await versionsLoader({
          request: new Request(`http://localhost/nol/creator/traffic-stop?${query}`, {
            headers: { cookie: creatorCookie },
          }),
          params: { form: "creator", cause: "traffic-stop" },
          context,
        })) as Response
      ).json()) as {
        timeline: { version: string; calendarHref: string; view: { rows: { state: string }[] } } | null;
        versions: { version: string; timelineHref: string }[];
      };
    const shown = await page("version=Delivered");
    expect(shown.timeline).toMatchObject({
      version: "Delivered",
      calendarHref: "/nol/creator/traffic-stop/calendar.ics?version=Delivered",
    });
    expect(shown.timeline?.view.rows.map((row) => row.state)).toEqual(["delivered", "next"]);
    expect(shown.versions.find((v) => v.version === "Unproven")?.timelineHref).toBe(
      "/nol/creator/traffic-stop?version=Unproven",
    );
    expect((await page("version=Nothing+like+it")).timeline).toBeNull();
    expect((await page("")).timeline).toBeNull();
  });

  it("shows an entry's version timeline in the data browser, to admins", async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const adminCookie = await siteCookies(services.config).session.serialize(
      (await createSession(database.db, admin!.id)).id,
    );
    const [entry] = await database.db
      .select({ id: nolEntries.id })
      .from(nolEntries)
      .where(eq(nolEntries.descriptiveVersion, "Delivered"));
    const record = (await recordsLoader({
      request: new Request(`http://localhost/db/nol_entries/${entry!.id}`, { headers: { cookie: adminCookie } }),
      params: { entity: "nol_entries", view: entry!.id },
      context,
    })) as Response;
    const body = (await record.json()) as {
      view: string;
      timeline: { title: string; calendarHref: string; view: { rows: { state: string; tracking: string[] }[] } };
    };
    expect(body.view).toBe("record");
    expect(body.timeline).toMatchObject({
      title: "Timeline: Traffic Stop · Delivered",
      calendarHref: "/nol/creator/traffic-stop/calendar.ics?version=Delivered&username=creator",
    });
    expect(body.timeline.view.rows[0]).toMatchObject({ state: "delivered", tracking: ["RR123456789US"] });
  });

  it("makes a mailed round's proof of service: each respondent with the mailing, its tracking number and the delivery", async () => {
    const version = "Served";
    const submit = (kind: "notice" | "mailing" | "proof", values: Record<string, string>) =>
      submitDated(services, viewer, viewer.member, { causeCode: "TS", version, kind, form: form(values) });
    await submit("notice", {
      claimantName: "Cara Creator",
      dailyAmount: "250",
      ...{ r1Name: "Officer Example", r1Type: "Official", r2Name: "City Clerk", r2Type: "Agency" },
    });
    await submit("mailing", {
      mailingDate: "2026-03-01",
      track1: "RR123456789US",
      track2: "9400 1000 0000 0000 0000 00",
    });
    await submit("proof", { delivered: "on", deliveredOn: "2026-03-05" });
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const adminCookie = await siteCookies(services.config).session.serialize(
      (await createSession(database.db, admin!.id)).id,
    );
    const get = async (query: string, cookie = creatorCookie) => {
      try {
        return (await proofLoader({
          request: new Request(`http://localhost/nol/creator/traffic-stop/proof-of-service.pdf?${query}`, {
            headers: { cookie },
          }),
          params: { form: "creator", cause: "traffic-stop" },
          context,
        })) as Response;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };
    const response = await get("version=Served&round=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain("-proof-of-service.pdf");
    const text = (await readPdf(await response.arrayBuffer())).pages.join("\n");
    for (const line of [
      "Proof of Service",
      "1. Officer Example (Official)",
      "Tracking number: RR123456789US",
      "2. City Clerk (Agency)",
      "Tracking number: 9400100000000000000000",
      "Mailed: Mar 1, 2026",
      "Delivered: Mar 5, 2026",
    ])
      expect(text).toContain(line);
    // An admin reads a member's; a round not mailed, a missing round and another member's are refused.
    expect((await get("version=Served&round=1&username=creator", adminCookie)).status).toBe(200);
    expect((await get("version=Served&round=2")).status).toBe(404);
    expect((await get("version=Served&round=0")).status).toBe(400);
    expect((await get("version=Served")).status).toBe(400);
    expect((await get("version=Nothing&round=1")).status).toBe(404);
    const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
    const memberCookie = await siteCookies(services.config).session.serialize(
      (await createSession(database.db, member!.id)).id,
    );
    expect((await get("version=Served&round=1&username=creator", memberCookie)).status).toBeGreaterThanOrEqual(400);
  });

  describe("the one-click unsubscribe link", () => {
    const linkRequest = (link: string, method = "GET") =>
      new Request(link.replace(services.config.baseUrl, "http://localhost"), {
        method,
        // What a mail program posts (RFC 8058): no cookie, no browser headers.
        ...(method === "POST" ? { body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) } : {}),
      });

    it("shows the kind it stops, stops it when posted without a session, and refuses a forged token", async () => {
      await saveReminderChoices(database.db, viewer.member.id, ["next-round", "no-proof", "true-bill"]);
      const link = unsubscribeLink(services.config, viewer.member.id, "next-round");
      const page = (await unsubscribeLoader({ request: linkRequest(link), params: {}, context })) as Response;
      expect(page.status).toBe(200);
      expect(await page.json()).toMatchObject({ label: "When the next round can go out", error: null });

      const forged = link.replace(/token=[^&]+/, `token=${"A".repeat(43)}`);
      const refused = (await unsubscribeAction({
        request: linkRequest(forged, "POST"),
        params: {},
        context,
      })) as Response;
      expect(refused.status).toBe(400);
      expect(
        (await unsubscribeLoader({ request: linkRequest(forged), params: {}, context })) as Response,
      ).toMatchObject({
        status: 400,
      });
      const otherKind = link.replace("kind=next-round", "kind=true-bill");
      expect(
        ((await unsubscribeAction({ request: linkRequest(otherKind, "POST"), params: {}, context })) as Response)
          .status,
      ).toBe(400);
      expect((await reminderChoices(database.db, viewer.member.id))["next-round"]).toBe(true);

      const done = (await unsubscribeAction({ request: linkRequest(link, "POST"), params: {}, context })) as Response;
      expect(done.status).toBe(200);
      expect(await done.json()).toEqual({ done: true, error: null });
      expect(await reminderChoices(database.db, viewer.member.id)).toEqual({
        "next-round": false,
        "no-proof": true,
        "true-bill": true,
      });
      // Posted again (a mail program's retry): still done, still one row.
      await unsubscribeAction({ request: linkRequest(link, "POST"), params: {}, context });
      const rows = await database.db.select().from(reminderOptOuts).where(eq(reminderOptOuts.userId, viewer.member.id));
      expect(rows.map((row) => row.kind)).toEqual(["next-round"]);
    });

    it("refuses a link with a part missing or malformed with a 400", async () => {
      for (const query of [
        "",
        "?member=x&kind=next-round&token=y",
        `?member=${viewer.member.id}&kind=spam&token=${"a".repeat(43)}`,
      ]) {
        const request = new Request(`http://localhost/reminders/unsubscribe${query}`, { method: "POST" });
        expect(((await unsubscribeAction({ request, params: {}, context })) as Response).status).toBe(400);
      }
    });
  });

  describe("the profile's reminder choices", () => {
    const post = (values: Record<string, string | string[]>) =>
      profileAction({
        request: new Request("http://localhost/profile/notices", {
          method: "POST",
          headers: { cookie: creatorCookie },
          body: form(values),
        }),
        params: {},
        context,
      }) as Promise<Response>;

    it("shows which kinds are on and saves the ones ticked", async () => {
      await saveReminderChoices(database.db, viewer.member.id, ["next-round", "no-proof", "true-bill"]);
      const saved = await post({ intent: "reminders", kinds: ["true-bill"] });
      expect(saved.status).toBe(302);
      const page = (await profileLoader({
        request: new Request("http://localhost/profile/notices", { headers: { cookie: creatorCookie } }),
        params: {},
        context,
      })) as Response;
      expect((await page.json()).reminders).toEqual([
        { kind: "next-round", label: "When the next round can go out", on: false },
        { kind: "no-proof", label: "When a mailing still has no proof of delivery", on: false },
        { kind: "true-bill", label: "A few days before a true bill is due", on: true },
      ]);
    });

    it("refuses a kind that is not a reminder's and changes nothing", async () => {
      const refused = await post({ intent: "reminders", kinds: ["true-bill", "weekly"] });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "Choose among the reminders listed" });
      expect(await reminderChoices(database.db, viewer.member.id)).toEqual({
        "next-round": false,
        "no-proof": false,
        "true-bill": true,
      });
    });
  });

  describe("with two job runners on one database", () => {
    let secondHandle: DatabaseHandle;
    const runners: JobRunner<{ sweep: JobDefinition<{ day: string }> }>[] = [];
    /** The sweep as the runner runs it, at the day the test moves time to. */
    const sweep = {
      name: "sweep",
      data: z.object({ day: z.string() }),
      batchSize: 4,
      async run(sweepServices, data) {
        await sendDueReminders(sweepServices, at(data.day));
      },
    } satisfies JobDefinition<{ day: string }>;

    beforeAll(async () => {
      secondHandle =
        driver === "postgres" ? await openDatabase({ driver: "postgres", url: database.url!, poolMax: 4 }) : database;
      const over = (handle: DatabaseHandle) =>
        testContext(handle, { SHUTDOWN_TIMEOUT_MS: "5000", SESSION_SECRET: services.config.sessionSecret }).app!;
      runners.push(
        ...(await Promise.all([
          startJobs(over(database), { pollingIntervalSeconds: 0.5, jobs: { sweep } }),
          startJobs(over(secondHandle), { pollingIntervalSeconds: 0.5, jobs: { sweep } }),
        ])),
      );
    });
    afterAll(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      if (secondHandle !== database) await secondHandle?.close();
    });

    it("send each reminder once, however many sweeps run at once", async () => {
      await saveReminderChoices(database.db, viewer.member.id, ["next-round", "no-proof", "true-bill"]);
      await roundOne("Shared 1", "2026-07-01", "2026-07-03");
      await roundOne("Shared 2", "2026-07-01", "2026-07-04");
      await roundOne("Shared 3", "2026-07-02");
      // Jul 26: both windows have closed (Jul 24, Jul 25) and Shared 3 has waited 24 days for its proof.
      await Promise.all(Array.from({ length: 12 }, (_, n) => runners[n % 2]!.enqueue("sweep", { day: "2026-07-26" })));
      const shared = async () =>
        (await database.db.select().from(mailOutbox).where(like(mailOutbox.text, '%"Shared %'))).map((m) => m.subject);
      await expect.poll(async () => (await shared()).length, { timeout: 20_000, interval: 200 }).toBe(3);
      // The sweeps have all ended: still one e-mail per reminder.
      await expect
        .poll(
          async () =>
            (
              await database.executeSql(
                "select count(*)::int as n from pgboss.job where name = 'sweep' and state = 'completed'",
              )
            ).rows[0]?.n,
          { timeout: 20_000, interval: 200 },
        )
        .toBe(12);
      expect((await shared()).sort()).toEqual([
        "No proof of delivery yet for your Round 1 Notice of Liability",
        "Your Round 2 Notice of Fault can go out now",
        "Your Round 2 Notice of Fault can go out now",
      ]);
      const rows = await database.db
        .select()
        .from(nolReminders)
        .where(like(nolReminders.descriptiveVersion, "Shared %"));
      expect(rows).toHaveLength(3);
    });
  });
});
