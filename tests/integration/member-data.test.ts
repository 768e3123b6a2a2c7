import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, desc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import {
  creditAccounts,
  creditEntries,
  mailOutbox,
  memberArchives,
  oneTimeTokens,
  payments,
  sessions,
  userFactors,
  users,
} from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { NotaryUnavailable } from "~/providers/notary/types";
import { loader as linkLoader } from "~/routes/profile.data.$token";
import { action as downloadAction, loader as downloadLoader } from "~/routes/profile.data.download";
import { action as profileAction, loader as profileLoader } from "~/routes/profile.($page)";
import { audit } from "~/services/audit.server";
import { deliverNotarySandboxEvents } from "~/services/notary/events.server";
import { notarize } from "~/services/notary/notarize.server";
import { archiveDir, memberArchiveJob, requestArchive, sweepArchives } from "~/services/member-data/archive.server";
import { utcDay } from "~/domain/member-archive";
import { submitDated } from "../helpers/steps";
import { loadViewer, siteCookies, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { eventually } from "../helpers/eventually";
import { readPdf } from "../helpers/pdf";
import { answer, formOf } from "../helpers/requests";
import { unzip } from "../helpers/zip";
import { createSession, createUser } from "../helpers/users";

const job = { id: "test", retryCount: 0, signal: new AbortController().signal };

type Person = { name: string; version: string; respondent: string; factorSecret: string };
const ADA: Person = {
  name: "Ada Archive",
  version: "Ada-2026",
  respondent: "Officer Adams",
  factorSecret: "SEALED-ADA",
};
const BEA: Person = {
  name: "Bea Other",
  version: "Bea-2026",
  respondent: "Officer Bristow",
  factorSecret: "SEALED-BEA",
};

describe.each(drivers)("download my data (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let context: ReturnType<typeof testContext>;
  const member: Record<string, typeof users.$inferSelect> = {};
  const viewer: Record<string, Viewer> = {};
  const cookie: Record<string, string> = {};
  let adminId = "";

  const cookieFor = async (userId: string, agentUserId: string | null = null) => {
    const session = await createSession(database.db, userId);
    if (agentUserId) await database.db.update(sessions).set({ agentUserId }).where(eq(sessions.id, session.id));
    return siteCookies(services.config).session.serialize(session.id);
  };

  /** A member with a notice (notarized, mailed, delivered), a payment, credits, two factors and an admin's change. */
  async function memberWithRecords(key: string, person: Person) {
    const row = await createUser(database.db, { name: person.name, nolCreator: true, countryCode: "US" });
    member[key] = row;
    viewer[key] = (await loadViewer(database.db, (await createSession(database.db, row.id)).id))!;
    cookie[key] = await cookieFor(row.id);
    const step = (kind: "notice" | "mailing" | "proof", values: Record<string, string>) =>
      submitDated(services, viewer[key]!, row, {
        causeCode: "TS",
        version: person.version,
        kind,
        form: formOf(values),
      });
    const { entryId } = await step("notice", {
      claimantName: person.name,
      dailyAmount: "250",
      r1Name: person.respondent,
      r1Type: "Official",
    });
    const ids = { cf_number: Number(entryId.split("-")[1]), cf_version: person.version, round_cnt: 1 };
    const made = await notarize(services, viewer[key]!, { ...ids, draft: false });
    if (!("notice" in made)) throw new Error(made.error);
    const nzId = made.notice.notarize!.nz_id!;
    await services.providers.notarySandbox!.meetNotary(nzId);
    await services.providers.notarySandbox!.sign(nzId);
    await deliverNotarySandboxEvents(services);
    await step("mailing", { mailingDate: "2026-03-02", track1: "RR123456789US" });
    await step("proof", { delivered: "on", deliveredOn: "2026-03-05" });
    await database.db.insert(payments).values({
      userId: row.id,
      kind: "donation",
      amountCents: 2500,
      status: "succeeded",
      provider: "sandbox",
      providerRef: `pi_${key}`,
      email: row.email,
    });
    await database.db.insert(creditAccounts).values({ userId: row.id, balance: 3 });
    await database.db.insert(creditEntries).values({ userId: row.id, delta: 3, reason: "grant", actorUserId: adminId });
    await database.db.insert(userFactors).values([
      { userId: row.id, kind: "totp", name: `${key} phone`, secretSealed: person.factorSecret },
      {
        userId: row.id,
        kind: "passkey",
        name: `${key} laptop`,
        credentialId: `CRED-${key}`,
        publicKey: `PUBKEY-${key}`,
      },
    ]);
    await audit(
      database.db,
      { actorUserId: adminId, agentUserId: null, ip: "198.51.100.9" },
      "members.flags",
      "user",
      row.id,
      {
        nolCreator: true,
      },
    );
  }

  /** Makes the member's archive now, as the job runner would; its row after. */
  async function makeArchiveOf(key: string) {
    const archiveId = await requestArchive(services, viewer[key]!);
    await memberArchiveJob.run(services, { archiveId }, job);
    const [row] = await database.db.select().from(memberArchives).where(eq(memberArchives.id, archiveId));
    return row!;
  }

  /** Moves the member's archive of today to a day long past, so that they may ask for another. */
  const askedOn = (key: string, day: string) =>
    database.db
      .update(memberArchives)
      .set({ requestedOn: day })
      .where(and(eq(memberArchives.userId, member[key]!.id), eq(memberArchives.requestedOn, utcDay(new Date()))));

  const linkOf = async (email: string) => {
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.template, "data-archive")))
      .orderBy(desc(mailOutbox.id))
      .limit(1);
    return /\/profile\/data\/([A-Za-z0-9_-]{43})$/m.exec(mail?.text ?? "")?.[1] ?? "";
  };

  /** The e-mailed link as a browser follows it: its page, which leads to the file when it gives one. */
  const download = async (token: string, withCookie: string | null) => {
    const init = withCookie ? { headers: { cookie: withCookie } } : {};
    const page = await answer(
      linkLoader({ request: new Request(`http://localhost/profile/data/${token}`, init), params: { token }, context }),
    );
    const to = page.headers.get("location");
    if (!to?.startsWith("/profile/data/download?")) return page;
    return answer(downloadLoader({ request: new Request(`http://localhost${to}`, init), params: {}, context }));
  };

  /** The profile's "Download your data" button, as its form sends it. */
  const downloadOwn = (withCookie: string, archiveId: string) =>
    answer(
      downloadAction({
        request: new Request("http://localhost/profile/data/download", {
          method: "POST",
          body: formOf({ archive: archiveId }),
          headers: { cookie: withCookie },
        }),
        params: {},
        context,
      }),
    );

  /** The profile's section on the archive, as the member (or an admin acting for them) reads it. */
  const archiveOnProfile = async (withCookie: string) => {
    const request = new Request("http://localhost/profile", { headers: { cookie: withCookie } });
    const page = await answer(profileLoader({ request, params: {}, context }));
    return ((await page.json()) as { archive: { state: string; download: { archiveId: string } | null } }).archive;
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    services = context.app!;
    adminId = (await database.db.select().from(users).where(eq(users.username, "admin")))[0]!.id;
    await memberWithRecords("ada", ADA);
    await memberWithRecords("bea", BEA);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  let archive: Map<string, Buffer>;
  let token = "";

  it("holds the member's records as JSON and their PDFs, described in README.txt, and nothing of another member", async () => {
    const row = await makeArchiveOf("ada");
    expect(row).toMatchObject({ status: "done", error: null, downloadedAt: null });
    expect(row.progressDone).toBe(row.progressTotal);
    expect(row.expiresAt!.getTime() - row.finishedAt!.getTime()).toBe(7 * 86_400_000);
    token = await linkOf(member.ada!.email);
    expect(token).not.toBe("");
    const response = await download(token, cookie.ada!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    archive = unzip(new Uint8Array(await response.arrayBuffer()));
    const names = [...archive.keys()];
    for (const name of ["profile", "sessions", "second-factors", "subscriptions", "payments", "billing", "credits"])
      expect(names).toContain(`records/${name}.json`);
    for (const name of ["nol-versions", "notices", "form-entries", "reminders", "messages", "audit-trail"])
      expect(names).toContain(`records/${name}.json`);
    const pdfs = (folder: string) => names.filter((n) => n.startsWith(`documents/${folder}/`) && n.endsWith(".pdf"));
    expect(pdfs("notices")).toHaveLength(1);
    expect(pdfs("proofs-of-service")).toHaveLength(1);
    expect(pdfs("notarized")).toHaveLength(1);
    for (const folder of ["notices", "proofs-of-service", "notarized"]) {
      const { pages } = await readPdf(archive.get(pdfs(folder)[0]!)!);
      expect(pages.join("\n")).toContain(ADA.name);
      expect(pages.join("\n")).not.toContain(BEA.name);
    }
    expect(names.filter((n) => n.startsWith("receipts/"))).toHaveLength(1);
    const readme = archive.get("README.txt")!.toString("utf8");
    for (const name of names) expect(readme).toContain(`- ${name}: `);

    const json = (name: string) => JSON.parse(archive.get(`records/${name}.json`)!.toString("utf8")) as unknown;
    expect(json("profile")).toMatchObject({ id: member.ada!.id, email: member.ada!.email, name: ADA.name });
    const versions = json("nol-versions") as {
      entries: { descriptiveVersion: string; respondents: { name: string }[] }[];
    };
    expect(versions.entries.map((e) => e.descriptiveVersion)).toContain(ADA.version);
    expect(versions.entries.flatMap((e) => e.respondents.map((r) => r.name))).toContain(ADA.respondent);
    expect(json("payments")).toMatchObject([{ amountCents: 2500, status: "succeeded" }]);
    expect(json("credits")).toMatchObject({ balance: 3, entries: [{ delta: 3, byYou: false }] });
    const factors = json("second-factors") as { factors: { kind: string; name: string }[] };
    expect(factors.factors.map((f) => f.name).sort()).toEqual(["ada laptop", "ada phone"]);
    const trail = json("audit-trail") as { action: string; by: string; ip: string | null }[];
    expect(trail).toContainEqual(expect.objectContaining({ action: "members.flags", by: "an admin", ip: null }));
    expect(trail).toContainEqual(expect.objectContaining({ action: "data.archive-requested", by: "you" }));

    const everything = [...archive.values()].map((b) => b.toString("latin1")).join("\n");
    // The other member: their id, name, e-mail, username, version and respondent.
    for (const other of [
      member.bea!.id,
      member.bea!.email,
      member.bea!.username,
      BEA.name,
      BEA.version,
      BEA.respondent,
    ])
      expect(everything).not.toContain(other);
    // Secrets: password hash, factor keys and sealed secrets, the admin's id and address.
    for (const secret of [
      member.ada!.passwordHash!,
      ADA.factorSecret,
      "PUBKEY-ada",
      "CRED-ada",
      adminId,
      "198.51.100.9",
    ])
      expect(everything).not.toContain(secret);
  });

  it("opens once, for the member signed in as themselves: not for another member, an admin acting for them or a visitor", async () => {
    // The link was used by the test before; another archive's link is tried here.
    await askedOn("ada", "2000-01-01");
    const row = await makeArchiveOf("ada");
    const fresh = await linkOf(member.ada!.email);
    expect(fresh).not.toBe(token);
    const file = path.join(archiveDir(services), `${row.id}.zip`);
    expect(existsSync(file)).toBe(true);

    // Not theirs: a page that says so (403), for another member and for an admin acting for her.
    const other = await download(fresh, cookie.bea!);
    expect(other.status).toBe(403);
    expect(((await other.json()) as { why: string }).why).toContain("This archive is not yours");
    expect((await download(fresh, await cookieFor(adminId, member.ada!.id))).status).toBe(403);
    expect((await download(fresh, await cookieFor(adminId))).status).toBe(403);
    const visitor = await download(fresh, null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`/profile/data/${fresh}`)}`);
    // None of those used it up.
    const first = await download(fresh, cookie.ada!);
    expect(first.status).toBe(200);
    expect(unzip(new Uint8Array(await first.arrayBuffer())).has("records/profile.json")).toBe(true);
    // A second time: a page that says it was downloaded and what to do (410).
    const again = await download(fresh, cookie.ada!);
    expect(again.status).toBe(410);
    const words = (await again.json()) as { why: string; todo: string };
    expect(words.why).toMatch(/^This archive was downloaded already \([A-Z][a-z]{2} \d{1,2}, \d{4}, /);
    expect(words.todo).toBe("Ask for a new archive on your profile: you can ask for one a day.");
    expect((await download(token, cookie.ada!)).status).toBe(410);
    // A code that is none of ours is not found.
    expect((await download("A".repeat(43), cookie.ada!)).status).toBe(404);
    // Once sent, its file is gone; the row says when.
    await eventually(() => !existsSync(file), "the downloaded archive's removal");
    const [after] = await database.db.select().from(memberArchives).where(eq(memberArchives.id, row.id));
    expect(after!.downloadedAt).not.toBeNull();
  });

  it("refuses an expired link", async () => {
    await askedOn("ada", "2000-01-02");
    await makeArchiveOf("ada");
    const expired = await linkOf(member.ada!.email);
    await database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.purpose, "data_archive"));
    const refused = await download(expired, cookie.ada!);
    expect(refused.status).toBe(410);
    expect(((await refused.json()) as { why: string }).why).toContain("This archive has expired");
  });

  it("makes one archive a day: a second request says when the next is possible; a failed one does not count", async () => {
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    const refused = await requestArchive(services, viewer.ada!).catch((error: Error & { status: number }) => error);
    expect(refused).toMatchObject({ status: 409 });
    expect((refused as Error).message).toContain(
      `You can ask again from ${tomorrow.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" })}`,
    );
    const count = async () => (await database.db.select().from(memberArchives)).length;
    const before = await count();
    // Through the profile's form: the page's message, and no new archive; the page says when.
    const request = (init: RequestInit = {}) =>
      new Request("http://localhost/profile", { ...init, headers: { cookie: cookie.ada! } });
    const form = { method: "POST", body: formOf({ intent: "data-archive" }) };
    expect((await answer(profileAction({ request: request(form), params: {}, context }))).status).toBe(302);
    expect(await count()).toBe(before);
    const page = await (await answer(profileLoader({ request: request(), params: {}, context }))).json();
    expect(page.archive).toMatchObject({ running: false, progress: null });
    expect(page.archive.state).toContain(
      `is ready: download it here, or with the link we e-mailed to ${member.ada!.email}. It can be downloaded once`,
    );
    expect(page.archive.nextAt).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, 12:00 AM UTC$/);

    // Bea's first archive fails (say, its server stopped); she may ask again the same day.
    const failedId = await requestArchive(services, viewer.bea!);
    await database.db.update(memberArchives).set({ status: "failed" }).where(eq(memberArchives.id, failedId));
    const again = await requestArchive(services, viewer.bea!);
    expect(again).not.toBe(failedId);
  });

  it("leaves out a document the notary no longer gives, says so in README.txt, and keeps the rest", async () => {
    await askedOn("bea", "2000-01-04");
    const notary = vi
      .spyOn(services.providers.notary, "notarizedDocument")
      .mockRejectedValue(new NotaryUnavailable("The notary did not answer"));
    const row = await makeArchiveOf("bea").finally(() => notary.mockRestore());
    expect(row.status).toBe("done");
    const files = unzip(readFileSync(path.join(archiveDir(services), `${row.id}.zip`)));
    expect([...files.keys()].filter((n) => n.startsWith("documents/notarized/"))).toEqual([]);
    expect([...files.keys()].filter((n) => n.startsWith("documents/notices/"))).toHaveLength(1);
    const readme = files.get("README.txt")!.toString("utf8");
    expect(readme).toMatch(/Not included[^\n]*\n- documents\/notarized\/notarized-[^:]+\.pdf: /);
  });

  it("expires archives past their days and removes their files and any file no archive needs", async () => {
    await askedOn("bea", "2000-01-05");
    const row = await makeArchiveOf("bea");
    const file = path.join(archiveDir(services), `${row.id}.zip`);
    const stray = path.join(archiveDir(services), ".00000000-0000-4000-8000-000000000000.zip.partial");
    mkdirSync(archiveDir(services), { recursive: true });
    writeFileSync(stray, "half");
    await sweepArchives(services);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(stray)).toBe(false);
    await database.db
      .update(memberArchives)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberArchives.id, row.id));
    await sweepArchives(services);
    const [after] = await database.db.select().from(memberArchives).where(eq(memberArchives.id, row.id));
    expect(after!.status).toBe("expired");
    expect(existsSync(file)).toBe(false);
    // The archives not yet downloaded nor expired keep their files (Ada's whose link expired among them).
    const kept = await database.db
      .select({ id: memberArchives.id })
      .from(memberArchives)
      .where(and(eq(memberArchives.status, "done"), isNull(memberArchives.downloadedAt)));
    expect(kept.length).toBeGreaterThan(0);
    expect(readdirSync(archiveDir(services)).sort()).toEqual(kept.map((k) => `${k.id}.zip`).sort());
  });

  it("gives the ready archive on the profile to the member signed in as themselves, once; the e-mailed link then says so", async () => {
    await askedOn("ada", "2000-01-06");
    const row = await makeArchiveOf("ada");
    const link = await linkOf(member.ada!.email);
    const file = path.join(archiveDir(services), `${row.id}.zip`);
    const own = await archiveOnProfile(cookie.ada!);
    expect(own.download).toEqual({ archiveId: row.id });
    expect(own.state).toContain("is ready: download it here, or with the link we e-mailed to");
    // An admin acting for her has no button: the data is hers alone to take.
    const agent = await cookieFor(adminId, member.ada!.id);
    expect((await archiveOnProfile(agent)).download).toBeNull();

    // Another member, or the admin acting for her, asking for her archive: back to the profile, told why, no file.
    for (const stranger of [cookie.bea!, agent]) {
      const refused = await downloadOwn(stranger, row.id);
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toBe("/profile");
      expect(refused.headers.get("set-cookie")).toBeTruthy();
    }
    expect(existsSync(file)).toBe(true);
    expect((await downloadOwn(cookie.bea!, "not-an-id")).status).toBe(302);

    const taken = await downloadOwn(cookie.ada!, row.id);
    expect(taken.status).toBe(200);
    expect(taken.headers.get("content-type")).toBe("application/zip");
    expect(taken.headers.get("content-disposition")).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(unzip(new Uint8Array(await taken.arrayBuffer())).has("records/profile.json")).toBe(true);
    await eventually(() => !existsSync(file), "the downloaded archive's removal");

    // Once: the button is gone, a second try is refused, and the e-mailed link says it was downloaded.
    expect((await archiveOnProfile(cookie.ada!)).download).toBeNull();
    expect((await downloadOwn(cookie.ada!, row.id)).status).toBe(302);
    const viaLink = await download(link, cookie.ada!);
    expect(viaLink.status).toBe(410);
    expect(((await viaLink.json()) as { why: string }).why).toContain("This archive was downloaded already");
  });
});
