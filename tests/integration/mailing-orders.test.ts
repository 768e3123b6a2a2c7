import { desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, checkouts, mailingOrders, mailOutbox, payments, sandboxObjects } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { SANDBOX_CARDS } from "~/providers/payments/sandbox.server";
import { SANDBOX_SCHEDULE } from "~/providers/mailhouse/sandbox.server";
import { runSandboxMailHouse } from "~/services/mailings/events.server";
import { entriesOf, versionState } from "~/services/nol/entries.server";
import { respondentServicePage } from "~/services/nol/respondent-service.server";
import { roundServiceOf } from "~/services/nol/service.server";
import { MailHouseUnavailable } from "~/providers/mailhouse/types";
import { payWithSandboxCard } from "~/services/billing/pages.server";
import { mailingOrderPaidJob, mailingOrderSendJob, refundLetter } from "~/services/mailings/order-jobs.server";
import { checkAddresses, MAIL_HOUSE_DOWN, mailPage } from "~/services/mailings/order.server";
import { cancelOrderLetter, payOrder, reopenOrder } from "~/services/mailings/order-pay.server";
import { DEFAULT_MAILING_SETTINGS, saveMailingSettings } from "~/services/mailings/settings.server";
import type { PageAddress } from "~/services/nol/pages.server";
import type { Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { demoCreator, MAIL_PAGE_ADDRESSES, mailingsOf, writeRoundOne } from "../helpers/mailings";

const address: PageAddress = { segment: "creator", form: "NoLCreator2", username: undefined } as PageAddress;
const PAGE = (version: string) => `/nol/creator/traffic-stop/mail?version=${encodeURIComponent(version)}`;

/** The addresses form as the page sends it, with some fields changed (an empty one left out). */
function addressesForm(overrides: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...MAIL_PAGE_ADDRESSES, ...overrides }))
    if (value !== "") form.set(name, value);
  return form;
}

const confirmForm = (attempt: string, extra: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [name, value] of Object.entries({ intent: "pay", attempt, ...extra })) form.set(name, value);
  return form;
};

describe.each(drivers)("mailing a round for the member, paid (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let creator: Viewer;

  const page = (version: string) => mailPage(services, creator, address, { cause: "traffic-stop", version });
  const check = (version: string, form = addressesForm()) =>
    checkAddresses(services, creator, address, { cause: "traffic-stop", version, form });
  const pay = (
    version: string,
    attempt: string,
    extra: Record<string, string> = { "confirm.1": "on", "confirm.2": "on" },
  ) =>
    payOrder(services, creator, address, {
      cause: "traffic-stop",
      version,
      form: confirmForm(attempt, extra),
      attempt,
      pagePath: PAGE(version),
    });
  /** The version's latest order. */
  const orderOf = async (version: string) =>
    (
      await database.db
        .select()
        .from(mailingOrders)
        .where(eq(mailingOrders.descriptiveVersion, version))
        .orderBy(desc(mailingOrders.sequence))
    )[0]!;
  const payByCard = async (version: string) => {
    const order = await orderOf(version);
    const [checkout] = await database.db.select().from(checkouts).where(eq(checkouts.id, order.checkoutId!));
    await payWithSandboxCard(services, checkout!, { cardNumber: SANDBOX_CARDS.success, expiry: "12/34", cvc: "123" });
    return checkout!;
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database).app!;
    creator = await demoCreator(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await saveMailingSettings(services, creator, DEFAULT_MAILING_SETTINGS);
  });

  it("reads the respondents' addresses from the notice, checks them with the mail house and shows its corrections", async () => {
    await writeRoundOne(services, creator, "Checked");
    const start = await page("Checked");
    expect(start).toMatchObject({ stage: "draft", round: 1, ready: false });
    if (!("recipients" in start)) throw new Error("no recipients");
    expect(start.recipients.map((r) => [r.slot, r.respondent, r.parts.line1, r.parts.zip])).toEqual([
      [1, "Officer Example", "1 Precinct Way", "62701"],
      [2, "Clerk Extra", "2 Court Street", "62701"],
    ]);
    expect(start.sender.parts).toMatchObject({ name: "Cara Creator" });

    expect((await check("Checked")).ok).toBe(true);
    const checked = await page("Checked");
    if (!("recipients" in checked)) throw new Error("no recipients");
    expect(checked.ready).toBe(true);
    expect(checked.quote).toMatchObject({ words: "2 envelopes × $9.50 = $19.00", total: "$19.00" });
    expect(checked.recipients[0]).toMatchObject({ blocker: null, suggestion: null });
    // USPS writes "2 Court Street, Springfield" as "2 COURT ST, SPRINGFIELD": the member chooses.
    expect(checked.recipients[1]!.suggestion).toEqual(["Clerk Extra", "2 CT ST", "SPRINGFIELD, IL 62701"]);

    // Nothing is paid for an address not confirmed.
    await expect(pay("Checked", crypto.randomUUID(), { "confirm.1": "on" })).rejects.toThrow(
      "Confirm the address of Clerk Extra before paying.",
    );
    expect((await orderOf("Checked")).status).toBe("draft");
  });

  it("refuses to pay while an address cannot be delivered to, and asks again when it is changed", async () => {
    await writeRoundOne(services, creator, "Undeliverable");
    const first = await check("Undeliverable", addressesForm({ "to.2.line1": "9 Undeliverable Lane" }));
    expect(first.ok).toBe(false);
    const shown = await page("Undeliverable");
    if (!("recipients" in shown)) throw new Error("no recipients");
    expect(shown.ready).toBe(false);
    expect(shown.recipients[1]!.blocker).toMatch(/USPS cannot deliver/);
    await expect(pay("Undeliverable", crypto.randomUUID())).rejects.toThrow(/Clerk Extra: USPS cannot deliver/);
    // Leaving the respondent out, the rest can go.
    const left = addressesForm({ "to.2.line1": "9 Undeliverable Lane" });
    left.delete("send.2");
    expect((await check("Undeliverable", left)).ok).toBe(true);
    const ready = await page("Undeliverable");
    expect(ready).toMatchObject({ ready: true, quote: { total: "$9.50" } });
    // A bad ZIP is the field's error, with nothing asked of the mail house.
    const asked = vi.spyOn(services.providers.mailhouse, "verifyAddress");
    const bad = await check("Undeliverable", addressesForm({ "to.1.zip": "627" }));
    expect(bad.ok).toBe(false);
    const wrong = await page("Undeliverable");
    if (!("recipients" in wrong)) throw new Error("no recipients");
    expect(wrong.recipients[0]!.errors.zip).toMatch(/ZIP code of 5 or 9 digits/);
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it("says the mail house is down and keeps nothing when it cannot check the addresses", async () => {
    await writeRoundOne(services, creator, "Down");
    vi.spyOn(services.providers.mailhouse, "verifyAddress").mockRejectedValue(new MailHouseUnavailable("no answer"));
    await expect(check("Down")).rejects.toThrow(MAIL_HOUSE_DOWN);
    expect(await database.db.select().from(mailingOrders).where(eq(mailingOrders.descriptiveVersion, "Down"))).toEqual(
      [],
    );
  });

  it("pays through the checkout, once for a double submit, and sends one letter per respondent however often the job runs", async () => {
    await writeRoundOne(services, creator, "Paid");
    await check("Paid");
    const attempt = crypto.randomUUID();
    const [a, b] = await Promise.all([
      pay("Paid", attempt, { "confirm.1": "on", "confirm.2": "on", "use.2": "typed" }),
      pay("Paid", attempt, { "confirm.1": "on", "confirm.2": "on", "use.2": "typed" }),
    ]);
    expect(a.next).toMatch(/^\/subscription\/unsafe\/card-plus\?checkout=/);
    expect(b.next).toBe(a.next);
    const order = await orderOf("Paid");
    expect(order).toMatchObject({ status: "paying", totalCents: 1900, checkoutId: attempt });
    // The member kept the clerk's address as typed.
    expect(
      (order.recipients as { slot: number; confirmed: { line1: string } }[]).map((r) => r.confirmed.line1),
    ).toEqual(["1 PRECINCT WAY", "2 Court Street"]);
    expect(await page("Paid")).toMatchObject({ stage: "paying", payHref: a.next });

    const checkout = await payByCard("Paid");
    expect(await page("Paid")).toMatchObject({ stage: "paid" });
    const [payment] = await database.db.select().from(payments).where(eq(payments.checkoutId, checkout.id));
    expect(payment).toMatchObject({ kind: "mailing", amountCents: 1900, status: "succeeded" });

    // Two runners at once: each letter is sent by one; a runner that finds one being sent tries again later.
    const runs = await Promise.allSettled([
      mailingOrderPaidJob.run(services, { checkoutId: checkout.id }),
      mailingOrderPaidJob.run(services, { checkoutId: checkout.id }),
    ]);
    for (const run of runs)
      if (run.status === "rejected") expect(String(run.reason)).toMatch(/letters of order .* are not sent yet/);
    await expect(mailingOrderPaidJob.run(services, { checkoutId: checkout.id })).resolves.toBeUndefined();
    const letters = await mailingsOf(database.db, creator.member.id, "Paid");
    expect(letters.map((l) => [l.slot, l.state, l.orderId, l.costCents, l.toAddress.line1])).toEqual([
      [1, "created", order.id, 950, "1 PRECINCT WAY"],
      [2, "created", order.id, 950, "2 Court Street"],
    ]);
    expect((await orderOf("Paid")).status).toBe("sent");
    const shown = await page("Paid");
    if (!("letters" in shown)) throw new Error("no letters");
    expect(shown.stage).toBe("sent");
    expect(shown.letters.map((l) => l.trackingNumber)).toEqual(letters.map((l) => l.trackingNumber));
    expect(shown.letters.every((l) => l.cancelUntil !== null)).toBe(true);
    // Paid and sent: the addresses can no longer change.
    await expect(check("Paid")).rejects.toThrow("These letters are paid for already.");
    await reopenOrder(services, creator, address, { cause: "traffic-stop", version: "Paid" });
    expect((await orderOf("Paid")).status).toBe("sent");
  });

  it("cancels a letter before print and gives back its price once", async () => {
    await writeRoundOne(services, creator, "Refunded");
    await check("Refunded");
    const attempt = crypto.randomUUID();
    await pay("Refunded", attempt);
    const checkout = await payByCard("Refunded");
    await mailingOrderPaidJob.run(services, { checkoutId: checkout.id });
    const [officerLetter] = await mailingsOf(database.db, creator.member.id, "Refunded");
    expect(await cancelOrderLetter(services, creator, officerLetter!.id)).toBe(
      "The letter is cancelled: $9.50 is refunded to your card.",
    );
    // Cancelled twice (a second click): one audit entry, one e-mail.
    await cancelOrderLetter(services, creator, officerLetter!.id);
    const entries = await database.db.select().from(auditLog).where(eq(auditLog.entityId, officerLetter!.id));
    expect(entries.map((e) => [e.action, e.actorUserId, e.data])).toEqual([
      [
        "mailing.cancel",
        creator.user.id,
        { round: 1, slot: 1, to: "Officer Example", version: "Refunded", refund: "$9.50" },
      ],
    ]);
    const mail = await database.db.select().from(mailOutbox).where(eq(mailOutbox.template, "mailing-cancelled"));
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      [creator.member.email, "Your Round 1 Notice of Liability to Officer Example is cancelled"],
    ]);
    expect(mail[0]!.text).toContain("$9.50 is refunded to the card you paid with");
    const refunded = vi.spyOn(services.providers.payments, "refundPayment");
    expect(await refundLetter(services, officerLetter!.id)).toBe(true);
    expect(await refundLetter(services, officerLetter!.id)).toBe(false);
    expect(refunded).toHaveBeenCalledTimes(1);
    expect(refunded.mock.calls[0]![0]).toMatchObject({
      amountCents: 950,
      idempotencyKey: `mailing-refund:${officerLetter!.id}`,
    });
    const [payment] = await database.db.select().from(payments).where(eq(payments.checkoutId, checkout.id));
    expect(payment).toMatchObject({ amountCents: 1900, refundedCents: 950, status: "succeeded" });
    const [after] = await mailingsOf(database.db, creator.member.id, "Refunded");
    expect(after).toMatchObject({ state: "cancelled", refundRef: expect.stringMatching(/^re_sb_/) });
    // The sandbox's intent holds the one refund.
    const [intent] = await database.db
      .select()
      .from(sandboxObjects)
      .where(eq(sandboxObjects.id, payment!.providerRef!));
    expect((intent!.data as { amountRefunded: number }).amountRefunded).toBe(950);
  });

  it("sends at once when the community pays for the envelopes", async () => {
    await saveMailingSettings(services, creator, {
      ...DEFAULT_MAILING_SETTINGS,
      prices: { perEnvelopeCents: 0, currency: "usd" },
    });
    await writeRoundOne(services, creator, "Free");
    await check("Free");
    const { next } = await pay("Free", crypto.randomUUID());
    expect(next).toBe(PAGE("Free"));
    const order = await orderOf("Free");
    expect(order).toMatchObject({ status: "paid", checkoutId: null, totalCents: 0 });
    await mailingOrderSendJob.run(services, { orderId: order.id });
    expect((await mailingsOf(database.db, creator.member.id, "Free")).map((l) => l.costCents)).toEqual([0, 0]);
  });

  it("gives back a payment no order waits for (addresses changed while it was being paid)", async () => {
    await writeRoundOne(services, creator, "Orphan");
    await check("Orphan");
    await pay("Orphan", crypto.randomUUID());
    const order = await orderOf("Orphan");
    const [checkout] = await database.db.select().from(checkouts).where(eq(checkouts.id, order.checkoutId!));
    await reopenOrder(services, creator, address, { cause: "traffic-stop", version: "Orphan" });
    expect((await orderOf("Orphan")).status).toBe("draft");
    await payWithSandboxCard(services, checkout!, { cardNumber: SANDBOX_CARDS.success, expiry: "12/34", cvc: "123" });
    await mailingOrderPaidJob.run(services, { checkoutId: checkout!.id });
    const [payment] = await database.db.select().from(payments).where(eq(payments.checkoutId, checkout!.id));
    expect(payment).toMatchObject({ refundedCents: 1900, status: "refunded" });
    expect(await mailingsOf(database.db, creator.member.id, "Orphan")).toEqual([]);
  });

  it("mails again from the app, in an order of its own, a respondent whose letter was cancelled or came back", async () => {
    const version = "Again";
    await writeRoundOne(services, creator, version);
    // The officer's first letter comes back; the clerk's is delivered.
    await check(version, addressesForm({ "to.1.line1": "1 Return To Sender Ln" }));
    await pay(version, crypto.randomUUID(), { "confirm.1": "on", "confirm.2": "on", "use.1": "typed" });
    await mailingOrderPaidJob.run(services, { checkoutId: (await payByCard(version)).id });
    const [first] = await mailingsOf(database.db, creator.member.id, version);
    await runSandboxMailHouse(services, new Date(first!.sendDate!.getTime() + SANDBOX_SCHEDULE.returned_to_sender + 1));
    const stateOf = async () => versionState(await entriesOf(database.db, creator.member.id, "TS"), version);
    expect((await stateOf()).step).toMatchObject({ kind: "proof", round: 1 });
    // The officer's own page, and only theirs, offers a new letter from the app.
    const servicePage = (slot: string) =>
      respondentServicePage(services, creator, address, { cause: "traffic-stop", version, round: "1", slot });
    expect((await servicePage("1")).mailAgainHref).toBe(PAGE(version));
    expect((await servicePage("2")).mailAgainHref).toBeNull();

    // At the proof step the page offers the officer alone, in a new order.
    const again = await page(version);
    if (!("recipients" in again)) throw new Error("no recipients");
    expect(again).toMatchObject({ stage: "draft", again: true });
    expect(again.recipients.map((r) => r.slot)).toEqual([1]);
    expect((await check(version)).ok).toBe(true);
    const attempt = crypto.randomUUID();
    await pay(version, attempt, { "confirm.1": "on" });
    const orders = await database.db
      .select()
      .from(mailingOrders)
      .where(eq(mailingOrders.descriptiveVersion, version))
      .orderBy(mailingOrders.sequence);
    expect(orders.map((o) => [o.sequence, o.status, o.totalCents])).toEqual([
      [1, "sent", 1900],
      [2, "paying", 950],
    ]);
    const checkout = await payByCard(version);
    await mailingOrderPaidJob.run(services, { checkoutId: checkout.id });
    // The order sent again makes no third envelope.
    await mailingOrderSendJob.run(services, { orderId: orders[1]!.id });
    const letters = await mailingsOf(database.db, creator.member.id, version);
    expect(letters.map((l) => [l.slot, l.envelope, l.state, l.orderId])).toEqual([
      [1, 1, "returned_to_sender", orders[0]!.id],
      [1, 2, "created", orders[1]!.id],
      [2, 1, "delivered", orders[0]!.id],
    ]);
    expect(letters[1]!.idempotencyKey).toMatch(/:r1:s1:e2$/);
    expect(letters[1]!.trackingNumber).not.toBe(letters[0]!.trackingNumber);

    // The reading: the new envelope stands for the officer, the returned one before it.
    const state = await stateOf();
    const service = await roundServiceOf(database.db, { creator: state.creator, entry: state.creator!, round: 1 });
    const officerService = service.respondents.find((r) => r.slot === 1)!;
    expect(officerService.current).toMatchObject({
      by: "app",
      status: "sending",
      tracking: letters[1]!.trackingNumber,
    });
    expect(officerService.earlier.map((e) => [e.status, e.tracking])).toEqual([
      ["returned", letters[0]!.trackingNumber],
    ]);
    expect(await page(version)).toMatchObject({ stage: "sent" });

    // Once the new envelope is delivered the round is served, and the next round follows.
    await runSandboxMailHouse(services, new Date(letters[1]!.sendDate!.getTime() + SANDBOX_SCHEDULE.delivered + 1));
    const served = await stateOf();
    expect(served.creator!.nolProofOfDelivery).toEqual([true]);
    expect(served.step).toMatchObject({ kind: "notice", round: 2 });
  });

  it("offers a respondent whose letter was cancelled before print a new letter once the order's letters went out", async () => {
    const version = "Cancelled again";
    await writeRoundOne(services, creator, version);
    await check(version);
    await pay(version, crypto.randomUUID());
    await mailingOrderPaidJob.run(services, { checkoutId: (await payByCard(version)).id });
    const [officerLetter] = await mailingsOf(database.db, creator.member.id, version);
    await cancelOrderLetter(services, creator, officerLetter!.id);
    const shown = await page(version);
    if (!("recipients" in shown)) throw new Error("no recipients");
    expect(shown).toMatchObject({ stage: "draft", again: true });
    expect(shown.recipients.map((r) => r.respondent)).toEqual(["Officer Example"]);
    // Both letters' rows stay on the page: the cancelled one and the clerk's.
    expect(shown.letters.map((l) => [l.slot, l.state])).toEqual([
      [1, "cancelled"],
      [2, "created"],
    ]);
  });
});
