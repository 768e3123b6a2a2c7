import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, creditAccounts, creditEntries, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { NO_CREDIT_MESSAGE } from "~/domain/credits";
import type { DomainError } from "~/domain/errors";
import { NotaryRefused } from "~/providers/notary/types";
import { startCheckout } from "~/services/billing/checkout.server";
import { claimPayments } from "~/services/billing/checkout-outcome.server";
import { creditBalance, creditHistory, grantCredits } from "~/services/billing/credits.server";
import { payWithSandboxCard } from "~/services/billing/pages.server";
import { submitDated } from "../helpers/steps";
import { deleteNotarization, notarize, updateNotarization } from "~/services/notary/notarize.server";
import { loadViewer, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";
import { formOf } from "../helpers/requests";

const notice1 = { claimantName: "Cara Creditor", dailyAmount: "250", r1Name: "Officer Example", r1Type: "Official" };
const card = (number: string) => ({ cardNumber: number, expiry: "12/39", cvc: "123" });

describe.each(drivers)("notarize credits (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let admin: Viewer;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database, { NOTARIZE_CREDITS: "1" }).app!;
    const [adminRow] = await database.db.select().from(users).where(eq(users.username, "admin"));
    admin = (await loadViewer(database.db, (await createSession(database.db, adminRow!.id)).id))!;
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A creator of their own (no credits), in the demo's country. */
  const creator = async () => {
    const user = await createUser(database.db, { nolCreator: true, countryCode: "US" });
    return (await loadViewer(database.db, (await createSession(database.db, user.id)).id))!;
  };
  /** Round 1 of a new version of the member's, and the ids that name its notice. */
  const roundOne = async (viewer: Viewer) => {
    const version = `Credit ${randomUUID().slice(0, 8)}`;
    const { entryId } = await submitDated(services, viewer, viewer.member, {
      causeCode: "TS",
      version,
      kind: "notice",
      form: formOf(notice1),
    });
    return { cf_number: Number(entryId.split("-")[1]), cf_version: version, round_cnt: 1 };
  };
  const grant = (viewer: Viewer, count: number) =>
    grantCredits(services, admin, viewer.member.id, { count, note: "For the test" });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: DomainError) => error,
    );
  const reasons = async (viewer: Viewer) =>
    (await creditHistory(database.db, viewer.member.id)).map((e) => [e.reason, e.delta, e.refunded]).reverse();

  it("refuses to notarize without a credit, sending nothing to the notary", async () => {
    const viewer = await creator();
    const ids = await roundOne(viewer);
    const create = vi.spyOn(services.providers.notary, "createTransaction");
    const error = await refusal(notarize(services, viewer, { ...ids, draft: false }));
    expect(error.status).toBe(409);
    expect(error.message).toBe(NO_CREDIT_MESSAGE);
    expect(error.extra).toEqual({ needsCredit: true });
    expect(create).not.toHaveBeenCalled();
    expect(await creditBalance(database.db, viewer.member.id)).toBe(0);
  });

  it("spends one credit per notarize and names the transaction it paid for; a second submit of an open one spends none", async () => {
    const viewer = await creator();
    await grant(viewer, 2);
    const ids = await roundOne(viewer);
    const first = await notarize(services, viewer, { ...ids, draft: false });
    if (!("notice" in first)) throw new Error(first.error);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(1);
    const again = await notarize(services, viewer, { ...ids, draft: false });
    expect("notice" in again).toBe(true);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(1);
    const [spend] = await database.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, viewer.member.id), eq(creditEntries.reason, "spend")));
    expect(spend?.nzId).toBe(first.notice.notarize!.nz_id);
    expect(await reasons(viewer)).toEqual([
      ["grant", 2, false],
      ["spend", -1, false],
    ]);
  });

  it("gives the credit back when the notary refuses the document", async () => {
    const viewer = await creator();
    await grant(viewer, 1);
    const ids = await roundOne(viewer);
    vi.spyOn(services.providers.notary, "createTransaction").mockRejectedValue(
      new NotaryRefused("The document has no signature field", 422),
    );
    const error = await refusal(notarize(services, viewer, { ...ids, draft: false }));
    expect(error.status).toBe(400);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(1);
    expect(await reasons(viewer)).toEqual([
      ["grant", 1, false],
      ["spend", -1, true],
      ["refund", 1, false],
    ]);
    // The credit given back pays for the next try.
    vi.restoreAllMocks();
    expect("notice" in (await notarize(services, viewer, { ...ids, draft: false }))).toBe(true);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(0);
  });

  it("gives the credit back when the member deletes before the notary starts, and not after", async () => {
    const viewer = await creator();
    await grant(viewer, 2);
    const draft = await notarize(services, viewer, { ...(await roundOne(viewer)), draft: true });
    if (!("notice" in draft)) throw new Error(draft.error);
    await deleteNotarization(services, viewer, draft.notice.notarize!.nz_id!);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(2);
    // A second delete of the same transaction gives nothing more.
    await deleteNotarization(services, viewer, draft.notice.notarize!.nz_id!).catch(() => undefined);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(2);

    const started = await notarize(services, viewer, { ...(await roundOne(viewer)), draft: false });
    if (!("notice" in started)) throw new Error(started.error);
    const nzId = started.notice.notarize!.nz_id!;
    await services.providers.notarySandbox!.meetNotary(nzId);
    await updateNotarization(services, viewer, nzId, { send: false });
    await deleteNotarization(services, viewer, nzId);
    expect(await creditBalance(database.db, viewer.member.id)).toBe(1);
  });

  it("spends at most the credits there are when notarize clicks come at once", async () => {
    const viewer = await creator();
    await grant(viewer, 2);
    const notices = [];
    for (let i = 0; i < 5; i++) notices.push(await roundOne(viewer));
    const results = await Promise.allSettled(notices.map((ids) => notarize(services, viewer, { ...ids, draft: true })));
    const sent = results.filter((r) => r.status === "fulfilled" && "notice" in r.value);
    const refused = results.filter((r) => r.status === "rejected");
    expect(sent).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ message: NO_CREDIT_MESSAGE });
    const [account] = await database.db
      .select()
      .from(creditAccounts)
      .where(eq(creditAccounts.userId, viewer.member.id));
    expect(account?.balance).toBe(0);
  });

  it("an admin's grant is kept in the history and the audit log", async () => {
    const viewer = await creator();
    expect(await grantCredits(services, admin, viewer.member.id, { count: 3, note: "Goodwill" })).toBe(3);
    const [entry] = await creditHistory(database.db, viewer.member.id);
    expect(entry).toMatchObject({ reason: "grant", delta: 3, note: "Goodwill", actorUserId: admin.user.id });
    const logged = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "credits.grant"), eq(auditLog.entityId, viewer.member.id)));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actorUserId: admin.user.id, data: { count: 3, note: "Goodwill" } });
  });

  it("a paid credit checkout adds one credit, once however often its event comes", async () => {
    const viewer = await creator();
    const checkout = await startCheckout(
      services,
      { viewer },
      { attempt: randomUUID(), planId: "notarize-credit", donationCents: null, couponSlug: null },
    );
    await payWithSandboxCard(services, checkout, card("4242424242424242"));
    expect(await creditBalance(database.db, viewer.member.id)).toBe(1);
    const [purchase] = await creditHistory(database.db, viewer.member.id);
    expect(purchase).toMatchObject({ reason: "purchase", delta: 1 });
    expect(purchase?.paymentId).toBeTruthy();
  });

  it("a visitor's credit is the member's once they sign up with its e-mail", async () => {
    const email = `visitor-${randomUUID().slice(0, 8)}@example.org`;
    const checkout = await startCheckout(
      services,
      { email },
      { attempt: randomUUID(), planId: "notarize-credit", donationCents: null, couponSlug: null },
    );
    await payWithSandboxCard(services, checkout, card("4242424242424242"));
    const user = await createUser(database.db, { email });
    expect(await claimPayments(services, user.id, email)).toBe(1);
    expect(await creditBalance(database.db, user.id)).toBe(1);
  });
});
