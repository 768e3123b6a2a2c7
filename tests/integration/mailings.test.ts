import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { mailings, mailOutbox, nolEntries, sandboxObjects } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { CANCEL_REFUSALS } from "~/domain/mailing/tracking";
import { SANDBOX_SCHEDULE } from "~/providers/mailhouse/sandbox.server";
import { MailHouseUnavailable } from "~/providers/mailhouse/types";
import { jobs } from "~/services/jobs.server";
import { cancelLetter } from "~/services/mailings/cancel.server";
import { applyMailEvent, runSandboxMailHouse } from "~/services/mailings/events.server";
import { pollMailings } from "~/services/mailings/jobs.server";
import { sendRoundLetters } from "~/services/mailings/send.server";
import { versionLetters } from "~/services/mailings/view.server";
import { entriesOf, versionState } from "~/services/nol/entries.server";
import { submitDated } from "../helpers/steps";
import type { Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { formOf } from "../helpers/requests";
import {
  bothRespondents,
  demoCreator,
  eventsOf,
  mailingsOf,
  officer,
  returnAddress,
  roundOneMailing,
  writeRoundOne,
} from "../helpers/mailings";
import { signRoundAs } from "../helpers/signatures";
import { createUser } from "../helpers/users";

const DAY = 24 * 60 * 60 * 1000;

describe.each(drivers)("mailing a round from the app (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let creator: Viewer;

  const roundOne = (version: string) => writeRoundOne(services, creator, version);
  const send = (version: string, recipients = bothRespondents, now?: Date) =>
    sendRoundLetters(services, creator.member, roundOneMailing(version), recipients, { now });
  const rowsOf = (version: string) => mailingsOf(database.db, creator.member.id, version);
  /** The letters the sandbox mail house holds for these mailings. */
  const lettersAtMailHouse = async (version: string) => {
    const ids = (await rowsOf(version)).map((row) => row.id);
    if (ids.length === 0) return [];
    return database.db
      .select()
      .from(sandboxObjects)
      .where(
        and(eq(sandboxObjects.type, "mail_letter"), inArray(sql`${sandboxObjects.data}->'metadata'->>'mailing'`, ids)),
      );
  };
  const creatorEntry = async (version: string) =>
    versionState(await entriesOf(database.db, creator.member.id, "TS"), version);
  const day = (at: Date) => at.toISOString().slice(0, 10);

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
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("sends one letter per respondent, the round's letter to each, and keeps the numbers on the round as typed", async () => {
    await roundOne("Mailed");
    const sent = await send("Mailed");
    expect(sent.map((letter) => [letter.slot, letter.outcome])).toEqual([
      [1, "sent"],
      [2, "sent"],
    ]);
    const rows = await rowsOf("Mailed");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      state: "created",
      provider: "sandbox",
      toAddress: officer,
      fromAddress: returnAddress,
      costCents: 950,
      attempt: 1,
      letterId: expect.stringMatching(/^ltr_sb_/),
      trackingNumber: expect.stringMatching(/^940711\d{16}$/),
      sendingSince: null,
    });
    expect(rows.map((row) => row.idempotencyKey)).toEqual([
      `mailing:${rows[0]!.entryId}:r1:s1`,
      `mailing:${rows[0]!.entryId}:r1:s2`,
    ]);
    const printed = await services.providers.mailhouseSandbox!.printed(rows[0]!.letterId!);
    expect(Buffer.from(printed!.subarray(0, 5)).toString()).toBe("%PDF-");

    const { creator: entry, step } = await creatorEntry("Mailed");
    expect(entry!.mail).toMatchObject({
      Track1: rows[0]!.trackingNumber,
      Tracking1: { "1": rows[0]!.trackingNumber, "2": rows[1]!.trackingNumber },
      Letters1: { "1": rows[0]!.letterId, "2": rows[1]!.letterId },
    });
    // Not mailed until USPS takes it: the step is still the mailing.
    expect(entry!.nolMailingDate).toEqual([null]);
    expect(step.kind).toBe("mailing");
  });

  it("makes one letter per respondent of two sends at the same moment, and of a third after", async () => {
    await roundOne("Double submit");
    const asked = vi.spyOn(services.providers.mailhouse, "sendLetter");
    const [a, b] = await Promise.all([send("Double submit"), send("Double submit")]);
    // Only the request that claimed a letter asks the mail house for it.
    expect(asked).toHaveBeenCalledTimes(2);
    for (const slot of [1, 2]) {
      const outcomes = [a, b].map((answer) => answer.find((letter) => letter.slot === slot)!.outcome);
      expect(outcomes.filter((outcome) => outcome === "sent")).toHaveLength(1);
    }
    const third = await send("Double submit");
    expect(third.map((letter) => letter.outcome)).toEqual(["kept", "kept"]);
    expect(await rowsOf("Double submit")).toHaveLength(2);
    expect(await lettersAtMailHouse("Double submit")).toHaveLength(2);
  });

  it("takes over a send whose answer was lost with the same key: two pollers at once, still one letter", async () => {
    await roundOne("Lost answer");
    const mailhouse = services.providers.mailhouse;
    const real = mailhouse.sendLetter.bind(mailhouse);
    // The mail house makes the letter, but its answer never arrives.
    const spy = vi.spyOn(mailhouse, "sendLetter").mockImplementationOnce(async (input) => {
      await real(input);
      throw new MailHouseUnavailable("Mailing is not available just now.");
    });
    const first = await send("Lost answer", [bothRespondents[0]!]);
    expect(first[0]).toMatchObject({ outcome: "unavailable", mailing: { state: "sending", sendingSince: null } });
    expect(await lettersAtMailHouse("Lost answer")).toHaveLength(1);

    const [one, two] = await Promise.all([pollMailings(services), pollMailings(services)]);
    expect(one.recovered + two.recovered).toBe(1);
    const [row] = await rowsOf("Lost answer");
    expect(row).toMatchObject({ state: "created", letterId: expect.stringMatching(/^ltr_sb_/) });
    expect(await lettersAtMailHouse("Lost answer")).toHaveLength(1);
    expect(spy.mock.calls.map(([input]) => input.idempotencyKey)).toEqual([row!.idempotencyKey, row!.idempotencyKey]);
  });

  it("moves the letters by the sandbox's clock: mailed fills the mailing date, the last delivery the proof of delivery", async () => {
    await roundOne("Delivered");
    await send("Delivered");
    const [first] = await rowsOf("Delivered");
    const sendDate = first!.sendDate!;
    const mailedAt = new Date(sendDate.getTime() + SANDBOX_SCHEDULE.mailed);

    await runSandboxMailHouse(services, new Date(mailedAt.getTime() + 60_000));
    let state = await creatorEntry("Delivered");
    expect((await rowsOf("Delivered")).map((row) => row.state)).toEqual(["mailed", "mailed"]);
    expect(state.creator!.nolMailingDate).toEqual([day(mailedAt)]);
    expect(state.step.kind).toBe("proof");

    const deliveredAt = new Date(sendDate.getTime() + SANDBOX_SCHEDULE.delivered);
    await runSandboxMailHouse(services, new Date(deliveredAt.getTime() + 60_000));
    const rows = await rowsOf("Delivered");
    expect(rows.map((row) => row.state)).toEqual(["delivered", "delivered"]);
    expect(rows[0]!.deliveredAt!.getTime()).toBe(deliveredAt.getTime());
    state = await creatorEntry("Delivered");
    expect(state.creator!.nolProofOfDelivery).toEqual([true]);
    expect(state.creator!.nolDeliveryDate).toEqual([day(deliveredAt)]);
    expect(state.step).toMatchObject({ kind: "notice", round: 2 });
    // Each step of each letter is one stored event.
    const events = await eventsOf(
      database.db,
      rows.map((row) => row.id),
    );
    expect(events.map((e) => e.type).sort()).toEqual(
      ["delivered", "delivered", "in_transit", "in_transit", "mailed", "mailed"].map((s) => `letter.certified.${s}`),
    );
    await runSandboxMailHouse(services, new Date(deliveredAt.getTime() + DAY));
    const again = await eventsOf(
      database.db,
      rows.map((row) => row.id),
    );
    expect(again).toHaveLength(6);
  });

  it("applies each event once, in any order: a repeat and an older one change nothing", async () => {
    await roundOne("Out of order");
    await send("Out of order", [bothRespondents[0]!]);
    const [row] = await rowsOf("Out of order");
    const event = (id: string, state: "mailed" | "in_transit" | "delivered", at: string) => ({
      id,
      provider: "sandbox" as const,
      providerType: `letter.certified.${state}`,
      letterId: row!.letterId,
      state,
      reason: null,
      occurredAt: new Date(at),
    });
    const transit = event("mev_transit", "in_transit", "2026-12-02T09:00:00Z");
    const mailed = event("mev_mailed", "mailed", "2026-12-01T09:00:00Z");
    const delivered = event("mev_delivered", "delivered", "2026-12-04T15:00:00Z");

    expect(await applyMailEvent(services, transit)).toMatchObject({ outcome: "applied" });
    // The lost "mailed" scan: the mailing date is the first later one's.
    expect((await rowsOf("Out of order"))[0]).toMatchObject({
      state: "in_transit",
      mailedAt: new Date("2026-12-02T09:00:00Z"),
    });
    expect(await applyMailEvent(services, mailed)).toMatchObject({ outcome: "applied" });
    expect((await rowsOf("Out of order"))[0]).toMatchObject({ state: "in_transit" });
    expect(await applyMailEvent(services, delivered)).toMatchObject({ outcome: "applied" });
    for (const again of [delivered, transit, mailed]) {
      expect(await applyMailEvent(services, again)).toMatchObject({ outcome: "duplicate" });
    }
    expect((await rowsOf("Out of order"))[0]).toMatchObject({
      state: "delivered",
      mailedAt: new Date("2026-12-02T09:00:00Z"),
      deliveredAt: new Date("2026-12-04T15:00:00Z"),
      lastEventAt: new Date("2026-12-04T15:00:00Z"),
    });
    const stored = await eventsOf(database.db, [row!.id]);
    expect(stored.map((e) => e.eventId).sort()).toEqual(["mev_delivered", "mev_mailed", "mev_transit"]);
    const { creator: entry } = await creatorEntry("Out of order");
    expect(entry!.nolMailingDate).toEqual(["2026-12-02"]);
    // Its other respondent was mailed nothing: the round is not delivered while they wait.
    expect(entry!.nolProofOfDelivery).toEqual([false]);
    expect(entry!.nolDeliveryDate).toEqual([null]);
  });

  it("records a letter returned to sender with its reason, and e-mails the member once", async () => {
    await roundOne("Returned");
    const returning = { ...officer, line1: "1 RETURN TO SENDER LN" };
    await send("Returned", [{ slot: 1, address: returning }]);
    const [row] = await rowsOf("Returned");
    await runSandboxMailHouse(services, new Date(row!.sendDate!.getTime() + SANDBOX_SCHEDULE.returned_to_sender + 1));
    const [returned] = await rowsOf("Returned");
    expect(returned).toMatchObject({
      state: "returned_to_sender",
      reason: "Return to sender: not deliverable as addressed, unable to forward",
      returnNoticeAt: expect.any(Date),
    });
    const mail = () =>
      database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.template, "mailing-returned"), eq(mailOutbox.to, creator.member.email)));
    const [notice] = await mail();
    expect(notice!.subject).toBe("Your Round 1 Notice of Liability to Officer Example came back");
    expect(notice!.text).toContain("not deliverable as addressed");
    expect(notice!.text).toContain(returned!.trackingNumber!);
    // Its events told again change nothing and send nothing.
    for (const event of await services.providers.mailhouse.listEvents(row!.letterId!)) {
      expect((await applyMailEvent(services, event)).outcome).toBe("duplicate");
    }
    expect(await mail()).toHaveLength(1);
    // Not delivered: the proof of delivery waits for the member.
    expect((await creatorEntry("Returned")).creator!.nolProofOfDelivery).toEqual([false]);
  });

  it("cancels a letter before its send date, names the refund once per letter, and refuses after", async () => {
    await roundOne("Cancelled");
    await send("Cancelled");
    const [officerLetter, clerkLetter] = await rowsOf("Cancelled");
    const cancelled = await cancelLetter(services, creator.member, officerLetter!.id);
    const refund = {
      key: `mailing-refund:${officerLetter!.id}`,
      mailingId: officerLetter!.id,
      cents: 950,
      currency: "usd",
    };
    const letter = { id: officerLetter!.id, round: 1, slot: 1, to: "Officer Example", version: "Cancelled" };
    expect(cancelled).toEqual({ outcome: "cancelled", refund, first: true, letter });
    // Cancelled again: the same refund, and nothing new to tell.
    expect(await cancelLetter(services, creator.member, officerLetter!.id)).toEqual({
      outcome: "cancelled",
      refund,
      first: false,
      letter,
    });
    expect((await services.providers.mailhouse.getLetter(officerLetter!.letterId!))!.state).toBe("cancelled");
    const { creator: entry } = await creatorEntry("Cancelled");
    expect(entry!.mail).toMatchObject({
      Track1: clerkLetter!.trackingNumber,
      Tracking1: { "2": clerkLetter!.trackingNumber },
    });
    expect(Object.keys(entry!.mail!.Tracking1 as object)).toEqual(["2"]);

    const late = new Date(clerkLetter!.sendDate!.getTime() + 60_000);
    expect(
      await versionLetters(services, creator.member, { causeCode: "TS", version: "Cancelled", round: 1 }, late),
    ).toEqual([
      expect.objectContaining({
        slot: 1,
        to: "Officer Example",
        state: "cancelled",
        cancelUntil: null,
        cancelRefusal: null,
      }),
      expect.objectContaining({
        slot: 2,
        to: "Clerk Extra",
        state: "created",
        trackingNumber: clerkLetter!.trackingNumber,
        costCents: 950,
        cancelUntil: null,
        cancelRefusal: CANCEL_REFUSALS.past_deadline,
      }),
    ]);
    expect(
      (await versionLetters(services, creator.member, { causeCode: "TS", version: "Cancelled" }))[1],
    ).toMatchObject({
      cancelUntil: clerkLetter!.sendDate,
      cancelRefusal: null,
    });
    expect(await cancelLetter(services, creator.member, clerkLetter!.id, late)).toEqual({
      outcome: "refused",
      message: CANCEL_REFUSALS.past_deadline,
      refund: null,
    });
    expect((await rowsOf("Cancelled")).map((row) => row.state)).toEqual(["cancelled", "created"]);
    const other = await createUser(database.db);
    await expect(cancelLetter(services, other, clerkLetter!.id)).rejects.toThrow("No such letter");
  });

  it("refuses a respondent the round does not mail, and sends nothing once the round is past its mailing", async () => {
    await roundOne("Refusals");
    await expect(send("Refusals", [{ slot: 5, address: officer }])).rejects.toThrow(
      "Respondent 5 is not mailed this round",
    );
    await submitDated(services, creator, creator.member, {
      causeCode: "TS",
      version: "Refusals",
      kind: "mailing",
      form: formOf({ mailingDate: "2026-03-02", track1: "RR123456789US", track2: "RR987654321US" }),
    });
    await expect(send("Refusals")).rejects.toThrow("The next step of this version is Round 1 Proof of Delivery.");
    expect(await rowsOf("Refusals")).toHaveLength(0);
  });

  it("mails a true bill the same way: its tracking, mailing date and proof of delivery on the bill's own entry", async () => {
    const version = "Billed";
    const step = (
      kind: "notice" | "mailing" | "proof" | "setup-billing" | "true-bill",
      values: Record<string, string>,
    ) => submitDated(services, creator, creator.member, { causeCode: "TS", version, kind, form: formOf(values) });
    await roundOne(version);
    for (const round of [1, 2, 3]) {
      if (round > 1) await step("notice", { claimantName: "Cara Creator", dailyAmount: "250" });
      await step("mailing", { mailingDate: "2026-03-02", track1: "RR123456789US", track2: "RR987654321US" });
      await step("proof", { delivered: "on", deliveredOn: "2026-03-05" });
    }
    await step("setup-billing", { dailyAmount: "250" });
    await step("true-bill", {
      preparationDate: "2026-06-01",
      administrativeJudgment: "10000",
      status1: "on",
      continue1: "on",
    });
    // The bill bills both respondents: each is mailed a letter of their own, signed as the notices are.
    await signRoundAs(services, creator, version, { round: 4 });
    const sent = await sendRoundLetters(
      services,
      creator.member,
      { ...roundOneMailing(version), round: 4 },
      bothRespondents,
    );
    expect(sent.map((letter) => letter.outcome)).toEqual(["sent", "sent"]);
    const [letter] = (await rowsOf(version)).filter((row) => row.slot === 1);
    const bill = async () => (await creatorEntry(version)).bills[0]!;
    expect(letter).toMatchObject({ round: 4, slot: 1, entryId: (await bill()).id });
    expect(await bill()).toMatchObject({ billTracking: letter!.trackingNumber, billMailingDate: null });
    expect((await bill()).data).toMatchObject({
      tracking: { "1": letter!.trackingNumber },
      letters: { "1": letter!.letterId },
    });

    const sendDate = letter!.sendDate!.getTime();
    await runSandboxMailHouse(services, new Date(sendDate + SANDBOX_SCHEDULE.delivered + 60_000));
    expect(await bill()).toMatchObject({
      billMailingDate: day(new Date(sendDate + SANDBOX_SCHEDULE.mailed)),
      billProofOfDelivery: true,
      billDeliveryDate: day(new Date(sendDate + SANDBOX_SCHEDULE.delivered)),
    });
    expect((await creatorEntry(version)).step).toMatchObject({ kind: "true-bill", round: 5 });
    // The notices' rounds keep what the member typed.
    expect((await creatorEntry(version)).creator!.mail).toMatchObject({ Track1: "RR123456789US" });
  });

  it("lists its jobs with the others: the sandbox's only with the sandbox", () => {
    expect(jobs["mailhouse-sandbox-events"].enabled(services)).toBe(true);
    expect(jobs["mailings-poll"].name).toBe("mailings-poll");
    const lob = testContext(database, {
      MAILHOUSE: "lob",
      LOB_API_KEY: "test_0dc8d51e0acffcb1880e0f19c79b2f5b0cc",
      LOB_WEBHOOK_SECRET: "lob-webhook-secret",
    }).app!;
    expect(jobs["mailhouse-sandbox-events"].enabled(lob)).toBe(false);
  });

  it("refuses, in the database itself, a letter to a slot outside 1 to 16", async () => {
    const [entry] = await database.db.select({ id: nolEntries.id }).from(nolEntries).limit(1);
    await expect(
      database.db.insert(mailings).values({
        userId: creator.member.id,
        entryId: entry!.id,
        causeCode: "TS",
        descriptiveVersion: "Checks",
        round: 1,
        slot: 17,
        provider: "sandbox",
        fromAddress: returnAddress,
        toAddress: officer,
        idempotencyKey: "mailing:check:s17",
        costCents: 950,
      }),
    ).rejects.toThrow();
  });
});
