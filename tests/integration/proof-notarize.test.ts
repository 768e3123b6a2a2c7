import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { creditAccounts, notarizations, nolVersionFeatures, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { loader as documentLoader } from "~/routes/api.nol.notarize.$nzId.document";
import { loader as versionsLoader } from "~/routes/nol.$form.$cause._index";
import { action as proofNotarizeAction } from "~/routes/nol.$form.$cause.proof-of-service.notarize";
import { noticesOf } from "~/services/documents/notices.server";
import { readFlash } from "~/services/flash.server";
import { deliverNotarySandboxEvents } from "~/services/notary/events.server";
import { submitDated } from "../helpers/steps";
import { loadViewer, siteCookies, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { readPdf } from "../helpers/pdf";
import { createSession } from "../helpers/users";
import { answer, formOf } from "../helpers/requests";

const ADDRESS = "1 Precinct Way, Springfield, IL 62701";
const notice1 = {
  claimantName: "Cara Creator",
  dailyAmount: "250",
  r1Name: "Officer Example",
  r1Type: "Official",
  r1Address: ADDRESS,
};
const CAUSE_PATH = "/nol/creator/traffic-stop";

describe.each(drivers)("notarizing a round's proof of service (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;
  let creator: Viewer;
  const cookie: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    services = context.app!;
    for (const u of await database.db.select().from(users)) {
      const session = await createSession(database.db, u.id);
      cookie[u.username] = await siteCookies(services.config).session.serialize(session.id);
      if (u.username === "creator") creator = (await loadViewer(database.db, session.id))!;
    }
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** A version whose round 1 is mailed (and delivered when asked). */
  async function mailedRoundOne(version: string, { delivered = true } = {}) {
    const steps: [string, Record<string, string>][] = [
      ["notice", notice1],
      ["mailing", { mailingDate: "2026-03-02", track1: "RR123456789US" }],
      ...(delivered
        ? ([["proof", { delivered: "on", deliveredOn: "2026-03-05" }]] as [string, Record<string, string>][])
        : []),
    ];
    for (const [kind, values] of steps)
      await submitDated(services, creator, creator.member, {
        causeCode: "TS",
        version,
        kind: kind as "notice",
        form: formOf(values),
      });
  }

  /** The timeline's form posted as a browser posts it; the answer is a redirect with its flash. */
  async function post(values: Record<string, string>, username = "creator") {
    const response = await answer(
      proofNotarizeAction({
        request: new Request(`http://localhost${CAUSE_PATH}/proof-of-service/notarize`, {
          method: "POST",
          body: new URLSearchParams(values),
          headers: { cookie: cookie[username]!, "content-type": "application/x-www-form-urlencoded" },
        }),
        params: { form: "creator", cause: "traffic-stop" },
        context,
      }),
    );
    const flashCookie = response.headers.get("set-cookie") ?? "";
    const { flash } = await readFlash(
      new Request("http://localhost/", { headers: { cookie: flashCookie.split(";")[0]! } }),
      services.config,
    );
    return { status: response.status, location: response.headers.get("location"), flash };
  }

  const proofRows = (version: string) =>
    database.db
      .select({ notarization: notarizations })
      .from(notarizations)
      .where(eq(notarizations.document, "proof-of-service"))
      .then((rows) => rows.map((r) => r.notarization))
      .then(async (rows) => {
        const own = await noticesOf(database.db, creator.member, "TS");
        const ids = new Set(own.filter((r) => r.claim.nolVersion === version).map((r) => r.notice.id));
        return rows.filter((r) => ids.has(r.noticeId));
      });

  async function versionPage(version: string) {
    const response = await answer(
      versionsLoader({
        request: new Request(`http://localhost${CAUSE_PATH}?${new URLSearchParams({ version })}`, {
          headers: { cookie: cookie.creator! },
        }),
        params: { form: "creator", cause: "traffic-stop" },
        context,
      }),
    );
    return ((await response.json()) as { timeline: { proofNotarize: unknown } }).timeline;
  }

  it("sends a mailed round's proof of service to the notary, beside the notice's own notarize, and the timeline shows it", async () => {
    await mailedRoundOne("Served");
    const sent = await post({ intent: "create", version: "Served", round: "1" });
    expect(sent.status).toBe(302);
    expect(sent.location).toBe(`${CAUSE_PATH}?version=Served`);
    expect(sent.flash).toMatchObject({ kind: "success", message: expect.stringMatching(/sent to the notary/) });
    const [row] = await proofRows("Served");
    expect(row).toMatchObject({ provider: "sandbox", nzStatus: "sent", document: "proof-of-service" });
    // The notice itself stays un-notarized: its record reads its own notarize only.
    const [record] = (await noticesOf(database.db, creator.member, "TS")).filter(
      (r) => r.claim.nolVersion === "Served",
    );
    expect(record!.notarization).toBeNull();
    // What the notary was given is the proof of service.
    const sentPdf = await services.providers.notarySandbox!.signerDocument(row!.nzId!);
    expect((await readPdf(sentPdf!.pdf)).pages.join("\n")).toContain("Proof of Service");

    const timeline = await versionPage("Served");
    expect(timeline.proofNotarize).toMatchObject({
      action: `${CAUSE_PATH}/proof-of-service/notarize`,
      rounds: {
        1: {
          status: "Sent: waiting for you to sign",
          nzId: row!.nzId,
          signingHref: expect.stringContaining(`/notary/sandbox/${row!.nzId}`),
          canStart: false,
          canDelete: true,
        },
      },
    });

    // A second send while it is open is the same transaction.
    await post({ intent: "create", version: "Served", round: "1" });
    expect((await proofRows("Served")).map((r) => r.nzId)).toEqual([row!.nzId]);
  });

  it("follows the signing to completed and gives the notarized proof of service", async () => {
    const [row] = await proofRows("Served");
    const sandbox = services.providers.notarySandbox!;
    await sandbox.meetNotary(row!.nzId!);
    await sandbox.sign(row!.nzId!);
    await deliverNotarySandboxEvents(services);
    const timeline = (await versionPage("Served")) as {
      proofNotarize: { rounds: Record<number, { status: string; notarizedHref: string; canDelete: boolean }> };
    };
    expect(timeline.proofNotarize.rounds[1]).toMatchObject({ status: "Completed: notarized", canDelete: false });
    const nzId = row!.nzId!;
    const response = await answer(
      documentLoader({
        request: new Request(`http://localhost${timeline.proofNotarize.rounds[1]!.notarizedHref}`, {
          headers: { cookie: cookie.creator! },
        }),
        params: { nzId },
        context,
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(
      /filename="notarized-ts-served-round-1-proof-of-service\.pdf"/,
    );
    const text = (await readPdf(new Uint8Array(await response.arrayBuffer()))).pages.join("\n");
    expect(text).toContain("Officer Example");
    expect(text).toContain("RR123456789US");
    expect(text).toContain(`Address: ${ADDRESS}`);
    // A completed one is not sent again.
    const again = await post({ intent: "create", version: "Served", round: "1" });
    expect(again.flash).toMatchObject({ kind: "error", message: "This proof of service is notarized already" });
  });

  it("refreshes and deletes through the same form; a deleted one may be sent again", async () => {
    await mailedRoundOne("Redone", { delivered: false });
    await post({ intent: "create", version: "Redone", round: "1" });
    const [row] = await proofRows("Redone");
    const refreshed = await post({ intent: "refresh", version: "Redone", nz_id: row!.nzId! });
    expect(refreshed.flash).toMatchObject({ kind: "success", message: "Updated status" });
    const deleted = await post({ intent: "delete", version: "Redone", nz_id: row!.nzId! });
    expect(deleted.flash).toMatchObject({ kind: "success", message: "The notarization was deleted." });
    expect(await proofRows("Redone")).toEqual([]);
    await post({ intent: "create", version: "Redone", round: "1" });
    const [again] = await proofRows("Redone");
    expect(again!.nzId).not.toBe(row!.nzId);
  });

  it("refuses a round not mailed, a version that does not notarize online, another member's and bad input, writing nothing", async () => {
    const before = await database.db.select().from(notarizations);
    await submitDated(services, creator, creator.member, {
      causeCode: "TS",
      version: "Unsent",
      kind: "notice",
      form: formOf(notice1),
    });
    const unsent = await post({ intent: "create", version: "Unsent", round: "1" });
    expect(unsent.flash).toMatchObject({ kind: "error", message: "This round has not been mailed yet" });

    await mailedRoundOne("Plain");
    await database.db
      .update(nolVersionFeatures)
      .set({ features: { AllowNotarizeOnline: false } })
      .where(and(eq(nolVersionFeatures.userId, creator.member.id), eq(nolVersionFeatures.descriptiveVersion, "Plain")));
    const plain = await post({ intent: "create", version: "Plain", round: "1" });
    expect(plain.flash).toMatchObject({ kind: "error", message: "Notarizing online is not enabled for this version." });
    expect((await versionPage("Plain")).proofNotarize).toBeNull();

    // The member's own notarization only: another's is not found.
    const [served] = await proofRows("Served");
    const other = await post({ intent: "delete", version: "Served", nz_id: served!.nzId! }, "admin");
    expect(other.flash).toMatchObject({ kind: "error" });

    const bads: Record<string, string>[] = [
      { intent: "create", version: "Served", round: "0" },
      { intent: "create", version: "Served", round: "one" },
      { intent: "create", version: "", round: "1" },
      { intent: "sign", version: "Served", round: "1" },
      { intent: "delete", version: "Served", nz_id: "../x" },
    ];
    for (const bad of bads) {
      const refused = await post(bad);
      expect(refused.flash, JSON.stringify(bad)).toMatchObject({ kind: "error" });
    }
    expect(await database.db.select().from(notarizations)).toEqual(before);
  });

  it("spends a credit where notarizing costs one, and sends nothing without one", async () => {
    const paid = testContext(database, { NOTARIZE_CREDITS: "1" });
    const paidConfig = paid.app!.config;
    const paidCookie = await siteCookies(paidConfig).session.serialize(
      (await createSession(database.db, creator.member.id)).id,
    );
    const balance = async () =>
      (await database.db.select().from(creditAccounts).where(eq(creditAccounts.userId, creator.member.id)))[0]!.balance;
    await database.db.update(creditAccounts).set({ balance: 1 }).where(eq(creditAccounts.userId, creator.member.id));
    const send = async (version: string) => {
      await mailedRoundOne(version);
      const response = await answer(
        proofNotarizeAction({
          request: new Request(`http://localhost${CAUSE_PATH}/proof-of-service/notarize`, {
            method: "POST",
            body: new URLSearchParams({ intent: "create", version, round: "1" }),
            headers: { cookie: paidCookie, "content-type": "application/x-www-form-urlencoded" },
          }),
          params: { form: "creator", cause: "traffic-stop" },
          context: paid,
        }),
      );
      const flashCookie = response.headers.get("set-cookie")!.split(";")[0]!;
      return (await readFlash(new Request("http://localhost/", { headers: { cookie: flashCookie } }), paidConfig))
        .flash;
    };
    expect(await send("Paid")).toMatchObject({ kind: "success" });
    expect(await balance()).toBe(0);
    expect(await proofRows("Paid")).toHaveLength(1);
    expect(await send("Unpaid")).toMatchObject({ kind: "error", message: expect.stringMatching(/credit/i) });
    expect(await balance()).toBe(0);
    expect(await proofRows("Unpaid")).toEqual([]);
  });
});
