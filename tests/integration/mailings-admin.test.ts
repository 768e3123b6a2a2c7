import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, mailings } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { mailingsQuerySchema } from "~/domain/mailing/admin-filters";
import { mailingSettingsFormSchema } from "~/domain/mailing/settings-form";
import { dashboard } from "~/services/dashboard.server";
import { mailingsAdminPage, mailingsNeedingAttention } from "~/services/mailings/admin-list.server";
import { sendRoundLetters } from "~/services/mailings/send.server";
import { DEFAULT_MAILING_SETTINGS, mailingSettings, saveMailingSettings } from "~/services/mailings/settings.server";
import type { Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { bothRespondents, demoCreator, mailingsOf, roundOneMailing, writeRoundOne } from "../helpers/mailings";

const DAY = 86_400_000;
const query = (fields: Record<string, string> = {}) => mailingsQuerySchema.parse(fields);

describe.each(drivers)("the admins' letters and mailing settings (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let creator: Viewer;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database).app!;
    creator = await demoCreator(database.db);
    // Three versions' letters: one delivered, one refused, one returned, one on its way, one quiet for long.
    for (const version of ["Admin A", "Admin B", "Admin C"]) {
      await writeRoundOne(services, creator, version);
      await sendRoundLetters(services, creator.member, roundOneMailing(version), bothRespondents);
    }
    const [a1, a2] = await mailingsOf(database.db, creator.member.id, "Admin A");
    const [b1, b2] = await mailingsOf(database.db, creator.member.id, "Admin B");
    const [c1] = await mailingsOf(database.db, creator.member.id, "Admin C");
    const set = (id: string, values: Partial<typeof mailings.$inferInsert>) =>
      database.db.update(mailings).set(values).where(eq(mailings.id, id));
    await set(a1!.id, { state: "delivered", deliveredAt: new Date() });
    await set(a2!.id, { state: "failed", reason: "The address is not complete." });
    await set(b1!.id, { state: "returned_to_sender", reason: "Return to sender", returnedAt: new Date() });
    await set(b2!.id, { state: "in_transit", lastEventAt: new Date() });
    await set(c1!.id, { state: "mailed", lastEventAt: new Date(Date.now() - 12 * DAY) });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("lists the letters needing attention first: refused, returned and lost, then the rest, newest first", async () => {
    const page = await mailingsAdminPage(services, query());
    expect(page.rows).toHaveLength(6);
    const attention = page.rows.filter((row) => row.attention);
    expect(page.rows.slice(0, 3)).toEqual(attention);
    expect(attention.map((row) => row.state).sort()).toEqual([
      "Lost: nothing heard for 10 days or more",
      "Refused by the mail house",
      "Returned to sender",
    ]);
    expect(page.rows[0]).toMatchObject({ username: "creator", cause: "Traffic Stop", cost: "$9.50" });
    expect(await mailingsNeedingAttention(services)).toBe(3);
    expect((await dashboard(services)).lettersNeedingAttention).toBe(3);
  });

  it("filters by kind and by member, and reads an unknown filter as all", async () => {
    const names = async (fields: Record<string, string>) =>
      (await mailingsAdminPage(services, query(fields))).rows.map((row) => `${row.version} ${row.to}`);
    expect(await names({ state: "lost" })).toEqual(["Admin C 1. Officer Example"]);
    expect(await names({ state: "returned" })).toEqual(["Admin B 1. Officer Example"]);
    expect(await names({ state: "failed" })).toEqual(["Admin A 2. Clerk Extra"]);
    expect(await names({ state: "delivered" })).toEqual(["Admin A 1. Officer Example"]);
    expect((await names({ state: "on-the-way" })).sort()).toEqual([
      "Admin B 2. Clerk Extra",
      "Admin C 1. Officer Example",
      "Admin C 2. Clerk Extra",
    ]);
    expect(await names({ state: "attention", member: "nobody" })).toEqual([]);
    expect(await names({ state: "attention", member: "CREAT" })).toHaveLength(3);
    expect(query({ state: "<script>", page: "-4", member: "x".repeat(500) })).toEqual({
      state: "all",
      page: 1,
      member: "",
    });
  });

  it("counts a letter as lost after the settings' days, and saves the settings with their audit", async () => {
    await saveMailingSettings(services, creator, { ...DEFAULT_MAILING_SETTINGS, lostAfterDays: 14 });
    expect(await mailingsNeedingAttention(services)).toBe(2);
    const form = mailingSettingsFormSchema.parse({
      intent: "mailing",
      perEnvelope: "12.5",
      returnLine1: "1 Hall Road",
      returnCity: "Dover",
      returnState: "de",
      returnZip: "199011234",
      lostAfterDays: "7",
    });
    await saveMailingSettings(services, creator, form);
    expect(await mailingSettings(services)).toEqual({
      prices: { perEnvelopeCents: 1250, currency: "usd" },
      returnAddress: { line1: "1 Hall Road", city: "Dover", state: "DE", zip: "19901-1234", country: "US" },
      lostAfterDays: 7,
    });
    const [audited] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "settings.mailing"))
      .orderBy(auditLog.id)
      .limit(1);
    expect(audited).toBeTruthy();
    await saveMailingSettings(services, creator, DEFAULT_MAILING_SETTINGS);
  });

  it("refuses a half address, a price that is not one and days out of range, naming each field", () => {
    const result = mailingSettingsFormSchema.safeParse({
      intent: "mailing",
      perEnvelope: "9,50",
      returnCity: "Dover",
      lostAfterDays: "90",
    });
    expect(result.success).toBe(false);
    const fields = Object.fromEntries(result.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(fields).toMatchObject({
      perEnvelope: "Enter a price in dollars, such as 9.50 (0 when the community pays)",
      lostAfterDays: "Enter a whole number of days from 2 to 60",
    });
    const address = mailingSettingsFormSchema.safeParse({
      intent: "mailing",
      perEnvelope: "9.50",
      returnCity: "Dover",
      lostAfterDays: "10",
    });
    expect(address.error!.issues.map((issue) => issue.path[0]).sort()).toEqual([
      "returnLine1",
      "returnState",
      "returnZip",
    ]);
    expect(
      mailingSettingsFormSchema.parse({ intent: "mailing", perEnvelope: "0", lostAfterDays: "10", returnLine1: " " }),
    ).toMatchObject({ prices: { perEnvelopeCents: 0 }, returnAddress: null });
  });
});
