import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxObjects } from "~/db/schema";
import type { PostalAddress } from "~/domain/mailing/address";
import { CANCEL_REFUSALS } from "~/domain/mailing/tracking";
import {
  checkDigit,
  RETURNED_REASON,
  SANDBOX_LETTER_ID,
  SANDBOX_SCHEDULE,
  sandboxMailHouse,
} from "~/providers/mailhouse/sandbox.server";
import {
  InvalidMailWebhook,
  MailRefused,
  type SandboxMailHouse,
  type SendLetterInput,
} from "~/providers/mailhouse/types";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";

const member: PostalAddress = {
  name: "Ada Lovelace",
  line1: "12 Claimant Road",
  city: "Dover",
  state: "DE",
  zip: "19901",
  country: "US",
};
const respondent: PostalAddress = {
  name: "Officer Dana Reyes",
  line1: "1 Precinct Way",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  country: "US",
};
const pdf = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n");
const DAY = 24 * 60 * 60 * 1000;

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a refusal"),
    (error: unknown) => error as MailRefused,
  );

describe.each(drivers)("the sandbox mail house (%s)", (driver) => {
  let database: TestDatabase;
  let mailhouse: SandboxMailHouse;
  let now: Date;
  let keys = 0;

  const input = (overrides: Partial<SendLetterInput> = {}): SendLetterInput => ({
    pdf,
    from: member,
    to: respondent,
    description: "Notice, round 1, to Officer Dana Reyes",
    idempotencyKey: `mailing-${++keys}`,
    metadata: { round_id: "41" },
    ...overrides,
  });
  const later = (ms: number) => (now = new Date(now.getTime() + ms));
  const letterCount = async () =>
    (await database.db.select().from(sandboxObjects).where(eq(sandboxObjects.type, "mail_letter"))).length;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  beforeEach(async () => {
    await database.db.delete(sandboxObjects);
    now = new Date("2026-11-28T10:00:00Z");
    mailhouse = sandboxMailHouse(database.db, { clock: () => now });
  });

  it("prints a letter and gives it a USPS Certified Mail number and a send date five minutes on", async () => {
    const letter = await mailhouse.sendLetter(input());
    expect(letter).toEqual({
      id: expect.stringMatching(SANDBOX_LETTER_ID),
      state: "created",
      trackingNumber: expect.stringMatching(/^940711\d{16}$/),
      sendDate: new Date("2026-11-28T10:05:00Z"),
      expectedDeliveryDate: "2026-12-02",
      createdAt: now,
      events: [],
    });
    const number = letter.trackingNumber!;
    expect(checkDigit(number.slice(0, 21))).toBe(number.at(-1));
    expect(Buffer.from((await mailhouse.printed(letter.id))!).equals(Buffer.from(pdf))).toBe(true);
  });

  it("makes one letter of a retried send, and of sends with one key at once", async () => {
    const first = await mailhouse.sendLetter(input({ idempotencyKey: "mailing-twice" }));
    expect((await mailhouse.sendLetter(input({ idempotencyKey: "mailing-twice" }))).id).toBe(first.id);
    const together = await Promise.all(
      [1, 2, 3].map(() => mailhouse.sendLetter(input({ idempotencyKey: "mailing-at-once" }))),
    );
    expect(new Set(together.map((letter) => letter.id)).size).toBe(1);
    expect(await letterCount()).toBe(2);
  });

  it("moves a letter mailed, in transit, then delivered by its clock, each step an event kept for the app", async () => {
    const letter = await mailhouse.sendLetter(input());
    const sendDate = letter.sendDate.getTime();
    later(SANDBOX_SCHEDULE.mailed + 5 * 60_000);
    expect(await mailhouse.advance(now)).toBe(1);
    expect((await mailhouse.getLetter(letter.id))!.state).toBe("mailed");

    later(DAY);
    expect((await mailhouse.getLetter(letter.id))!.state).toBe("in_transit");
    later(2 * DAY);
    expect(await mailhouse.advance(now)).toBe(1);
    expect(await mailhouse.advance(now)).toBe(0);

    const events = await mailhouse.listEvents(letter.id);
    expect(events.map((e) => [e.providerType, e.state, e.occurredAt.getTime() - sendDate])).toEqual([
      ["letter.certified.mailed", "mailed", SANDBOX_SCHEDULE.mailed],
      ["letter.certified.in_transit", "in_transit", SANDBOX_SCHEDULE.in_transit],
      ["letter.certified.delivered", "delivered", SANDBOX_SCHEDULE.delivered],
    ]);
    expect((await mailhouse.getLetter(letter.id))!.state).toBe("delivered");

    const kept = await mailhouse.undeliveredEvents();
    expect(kept.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(kept.every((e) => e.provider === "sandbox" && e.letterId === letter.id)).toBe(true);
    await mailhouse.markDelivered(kept[0]!.id);
    expect((await mailhouse.undeliveredEvents()).map((e) => e.id)).toEqual(events.slice(1).map((e) => e.id));
  });

  it.each([
    ["a street line saying RETURN TO SENDER", { line1: "1 Return To Sender Lane" }],
    ["the ZIP 00000", { zip: "00000" }],
  ])("returns to sender a letter to %s, with the carrier's reason", async (_what, change) => {
    const letter = await mailhouse.sendLetter(input({ to: { ...respondent, ...change } }));
    later(SANDBOX_SCHEDULE.delivered + DAY);
    expect((await mailhouse.getLetter(letter.id))!.state).toBe("in_transit");
    later(DAY + 5 * 60_000);
    const events = await mailhouse.listEvents(letter.id);
    expect(events.map((e) => e.state)).toEqual(["mailed", "in_transit", "returned_to_sender"]);
    expect(events.at(-1)).toMatchObject({ reason: RETURNED_REASON });
  });

  it("cancels a letter before its send date; nothing moves it after; a second cancel is no error", async () => {
    const letter = await mailhouse.sendLetter(input());
    later(4 * 60_000);
    await mailhouse.cancelLetter(letter.id);
    await mailhouse.cancelLetter(letter.id);
    later(10 * DAY);
    await mailhouse.advance(now);
    const events = await mailhouse.listEvents(letter.id);
    expect(events.map((e) => [e.providerType, e.state])).toEqual([["letter.deleted", "cancelled"]]);
    expect((await mailhouse.getLetter(letter.id))!.state).toBe("cancelled");
  });

  it("refuses to cancel once the send date has passed, and once the letter is in the mail", async () => {
    const letter = await mailhouse.sendLetter(input());
    later(5 * 60_000);
    const past = await refusal(mailhouse.cancelLetter(letter.id));
    expect(past).toBeInstanceOf(MailRefused);
    expect(past).toMatchObject({ status: 422, providerCode: "not_deletable", message: CANCEL_REFUSALS.past_deadline });
    later(2 * DAY);
    expect(await refusal(mailhouse.cancelLetter(letter.id))).toMatchObject({ message: CANCEL_REFUSALS.in_the_mail });
    expect((await mailhouse.getLetter(letter.id))!.state).toBe("in_transit");
  });

  it("verifies an address as USPS writes it, and names the addresses that fail", async () => {
    expect(await mailhouse.verifyAddress({ ...respondent, line1: "100 North Main Street." })).toEqual({
      deliverability: "deliverable",
      standardized: { ...respondent, line1: "100 N MAIN ST", line2: undefined, city: "SPRINGFIELD" },
      corrected: true,
      providerResult: "deliverable",
    });
    expect(await mailhouse.verifyAddress({ ...respondent, line1: "1 PRECINCT WAY" })).toMatchObject({
      corrected: false,
    });
    expect(await mailhouse.verifyAddress({ ...respondent, line1: "9 Undeliverable Road" })).toEqual({
      deliverability: "undeliverable",
      standardized: null,
      corrected: false,
      providerResult: "undeliverable",
    });
    expect(await mailhouse.verifyAddress({ ...respondent, line2: "Missing Unit" })).toMatchObject({
      deliverability: "unit_missing",
    });
  });

  it("refuses a file that is not a PDF and an incomplete address, and sends no webhooks", async () => {
    expect(await refusal(mailhouse.sendLetter(input({ pdf: new TextEncoder().encode("plain text") })))).toMatchObject({
      providerCode: "invalid_file",
    });
    expect(await refusal(mailhouse.sendLetter(input({ to: { ...respondent, zip: "627" } })))).toMatchObject({
      message: "The to address is not complete.",
    });
    expect(await letterCount()).toBe(0);
    expect(() => mailhouse.readWebhook("{}", new Headers())).toThrow(InvalidMailWebhook);
  });

  it("knows no letter it did not make", async () => {
    expect(await mailhouse.getLetter("ltr_sb_000000000000000000000000")).toBeNull();
    expect(await mailhouse.getLetter("ltr_4868c3b754655f90")).toBeNull();
    expect(await mailhouse.listEvents("ltr_sb_000000000000000000000000")).toEqual([]);
    expect(await mailhouse.printed("ltr_sb_000000000000000000000000")).toBeNull();
    expect(await refusal(mailhouse.cancelLetter("ltr_sb_000000000000000000000000"))).toMatchObject({ status: 404 });
  });

  it("is the mail house chosen at boot unless MAILHOUSE=lob", async () => {
    const sandbox = testContext(database).app!.providers;
    expect(sandbox.mailhouse.name).toBe("sandbox");
    expect(sandbox.mailhouseSandbox).toBe(sandbox.mailhouse);
    const lob = testContext(database, {
      MAILHOUSE: "lob",
      LOB_API_KEY: "test_0dc8d51e0acffcb1880e0f19c79b2f5b0cc",
      LOB_WEBHOOK_SECRET: "lob-webhook-secret",
    }).app!.providers;
    expect(lob.mailhouse.name).toBe("lob");
    expect(lob.mailhouseSandbox).toBeNull();
  });
});
